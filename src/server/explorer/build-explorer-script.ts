// Bundles the explorer's browser script (script/main.ts and what it imports) into one file, at `npm run build` and
// before the tests. Build tooling: it runs esbuild, a dev dependency, and is left out of dist/.
// Usage: tsx src/server/explorer/build-explorer-script.ts
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { EXPLORER_SCRIPT_FILE } from "./page-script.js";

const ENTRY = fileURLToPath(new URL("./script/main.ts", import.meta.url));

export function buildExplorerScript(): void {
  const { metafile } = buildSync({ entryPoints: [ENTRY], outfile: EXPLORER_SCRIPT_FILE, bundle: true, format: "esm", target: "es2022", platform: "browser", metafile: true, logLevel: "warning" });
  // The page ships no library: a value import where a type import was meant (zod, say) would bundle it whole.
  const libraries = Object.keys(metafile.inputs).filter((input) => input.includes("node_modules"));
  if (libraries.length > 0) throw new Error(`The explorer's script bundles library code, import its types only: ${libraries.join(", ")}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildExplorerScript();
  process.stdout.write(`built ${EXPLORER_SCRIPT_FILE}\n`);
}
