import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import path from "node:path";

export const CLI = path.resolve("dist/cli/main.js");

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `router` CLI as users do, in a child process. */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; uid?: number; gid?: number } = {}): CliResult {
  const result: SpawnSyncReturns<string> = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    encoding: "utf8",
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid ?? options.uid } : {}),
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
