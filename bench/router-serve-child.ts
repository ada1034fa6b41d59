import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { readFileSync } from "node:fs";
import { SHIPPED_ENV, SHIPPED_NODE_FLAGS } from "./shipped-serve-process.js";

/** `router serve` in a child process of a bench, once its log said it is ready. */
export interface RouterServeChild {
  child: ChildProcess;
  url: string;
  embedder: string;
  skills: number;
}

/**
 * Starts `node <entry...> serve <flags...>` and waits for its `ready` log line (the URL comes from `listening`).
 * `entry` is the CLI to run: `["dist/cli/main.js"]` as users run it, or tsx and `src/cli/main.ts`. Node runs with
 * the Docker image's flags and environment.
 */
export async function startRouterServe(entry: string[], flags: string[], options: SpawnOptions = {}): Promise<RouterServeChild> {
  const child = spawn(process.execPath, [...SHIPPED_NODE_FLAGS, ...entry, "serve", ...flags], {
    ...options,
    env: { ...(options.env ?? process.env), ...SHIPPED_ENV },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let pending = "";
  const ready = new Promise<Omit<RouterServeChild, "child">>((resolve, reject) => {
    let url = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        if (line.includes('"event":"listening"')) url = (JSON.parse(line) as { url: string }).url;
        else if (line.includes('"event":"ready"')) {
          const event = JSON.parse(line) as { embedder: string; skills: number };
          resolve({ url, embedder: event.embedder, skills: event.skills });
        }
      }
    });
    child.once("exit", (code) => reject(new Error(`router serve exited with code ${code} before it was ready`)));
  });
  return { child, ...(await ready) };
}

/** The CLI as users run it, relative to the repository. */
export const BUILT_CLI = "dist/cli/main.js";

/** Builds dist/ (`npm run build`), so that a bench of the built CLI measures the sources whose commit it reports. */
export function buildCli(repo: string): void {
  execFileSync("npm", ["run", "build", "--silent"], { cwd: repo, stdio: "inherit" });
}

/** SIGTERM, then the exit code once it has drained. */
export async function stopRouterServe(server: { child: ChildProcess }): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  return exited;
}

/** Resident set size of a process, in MB (from /proc). */
export function rssMbOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
}
