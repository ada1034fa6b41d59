import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { buildOfflineModel } from "../../src/models/build-offline-model.js";
import { buildExplorerScript } from "../../src/server/explorer/build-explorer-script.js";
import { buildHanGlosses } from "../../src/text/build-han-glosses.js";

// CLI and server tests run the built dist/, exactly what users run; build it once per test run, with the offline
// model and the gloss table as `npm run build` makes them (only when its inputs changed), and the explorer's script.
export default function setup(): void {
  // Files of modules since removed or excluded would otherwise linger in dist/ and ship.
  rmSync("dist", { recursive: true, force: true });
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" });
  buildOfflineModel();
  buildHanGlosses();
  buildExplorerScript();
}
