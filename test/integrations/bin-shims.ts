import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Writes `router` and `router-hook` into `bin`, launching the built CLI, and the PATH that finds them first:
 * the examples and settings snippets call the commands by name, as they are once skill-router is installed.
 */
export function binShims(bin: string): { env: NodeJS.ProcessEnv } {
  mkdirSync(bin, { recursive: true });
  for (const [name, file] of [
    ["router", "dist/cli/main.js"],
    ["router-hook", "dist/cli/hook-main.js"],
  ] as const) {
    writeFileSync(path.join(bin, name), `#!/bin/sh\nexec "${process.execPath}" "${path.resolve(file)}" "$@"\n`, { mode: 0o755 });
  }
  return { env: { PATH: `${bin}${path.delimiter}${process.env.PATH}` } };
}
