import { spawn } from "node:child_process";

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command with `input` on stdin without blocking the event loop (the router under test runs in this process). */
export function runProcess(command: string, args: string[], input: string, options: { env?: NodeJS.ProcessEnv; shell?: boolean; cwd?: string } = {}): Promise<ProcessResult> {
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, shell: options.shell ?? false, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
