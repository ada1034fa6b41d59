import { execFile } from "node:child_process";
import { CLI, type CliResult } from "../helpers/cli.js";

/** Runs the built CLI without blocking this process, so a server in the test (a mock hub) can answer it. */
export function runCliAsync(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, encoding: "utf8" }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ status, stdout, stderr });
    });
  });
}
