import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The explorer's browser script, served as a file of its own (the CSP runs no inline script): the TypeScript in
 * script/, bundled into one file by `npm run build` (build-explorer-script.ts). The same path from src/ and dist/.
 */
export const EXPLORER_SCRIPT_FILE = fileURLToPath(new URL("../../../dist/server/explorer/explorer.js", import.meta.url));

export function explorerScript(): string {
  if (!existsSync(EXPLORER_SCRIPT_FILE)) throw new Error(`The explorer's script is not built (${EXPLORER_SCRIPT_FILE}): run \`npm run build\`, or serve with --no-explorer`);
  return readFileSync(EXPLORER_SCRIPT_FILE, "utf8");
}
