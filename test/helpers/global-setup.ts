import { execFileSync } from "node:child_process";

// CLI and server tests run the built dist/, exactly what users run; build it once per test run.
export default function setup(): void {
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" });
}
