import path from "node:path";

/** tsx's CLI, to run the TypeScript examples as a user would with `npx tsx`. */
export const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");
