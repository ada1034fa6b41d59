import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A folder with `router` and `router-hook` launching the built CLI, to put first on PATH: the examples and
 * settings snippets call the commands by name, as they are once skill-router is installed.
 */
export function binShims(dir: string): { bin: string; env: NodeJS.ProcessEnv } {
  const bin = path.join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  for (const [name, file] of [["router", "dist/cli/main.js"], ["router-hook", "dist/cli/hook-main.js"]] as const) {
    writeFileSync(path.join(bin, name), `#!/bin/sh\nexec "${process.execPath}" "${path.resolve(file)}" "$@"\n`, { mode: 0o755 });
  }
  return { bin, env: { PATH: `${bin}${path.delimiter}${process.env.PATH}` } };
}
