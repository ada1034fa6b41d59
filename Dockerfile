# Build stage: compiles TypeScript and the native SQLite binding.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc tsconfig.json tsconfig.build.json ./
COPY src ./src
# `npm ci` runs the prepare script, which builds dist/; dev dependencies are dropped afterwards.
RUN npm ci && npm prune --omit=dev

# Runtime stage: no compiler, runs as the unprivileged node user.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production ROUTER_DB=/app/data/router.db ROUTER_HOST=0.0.0.0 ROUTER_PORT=8787
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY data/skills ./data/skills
RUN mkdir -p /app/data /app/models && chown -R node:node /app/data /app/models
USER node
RUN node dist/cli/main.js index data/skills
EXPOSE 8787
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:8787/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/cli/main.js", "serve"]
