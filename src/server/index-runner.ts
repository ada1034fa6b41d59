import { spawn, type ChildProcess } from "node:child_process";
import { createError, ERROR_CATALOGUE, type ErrorCode, type RouterError } from "../errors.js";
import type { Logger } from "./logger.js";
import type { ServerMetrics } from "./metrics.js";

export interface IndexRunnerOptions {
  /** The `router` CLI script; the index runs in a child process so embedding never stalls the server. */
  cli: string;
  paths: string[];
  db: string;
  logger: Logger;
  metrics: ServerMetrics;
  /** Called after each successful run (the server then reloads at once instead of at the next poll). */
  onIndexed: () => void;
}

export interface IndexRunner {
  /** Runs `router index`; while one runs, callers share one more run after it (files may have changed since it read them). */
  run(): Promise<void>;
  /** Stops a run in progress (index runs commit in one transaction, so the index stays as it was). */
  close(): void;
}

// Enough of a failed run's stderr to show the reason without flooding the log.
const STDERR_TAIL = 4000;

export function createIndexRunner(options: IndexRunnerOptions): IndexRunner {
  let current: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  let child: ChildProcess | undefined;
  let closed = false;

  const runOnce = (): Promise<void> =>
    new Promise((resolve, reject) => {
      if (closed) return reject(createError("INTERNAL_ERROR", "the server is shutting down"));
      const started = performance.now();
      const spawned = spawn(process.execPath, [options.cli, "index", ...options.paths, "--db", options.db, "--json"], { stdio: ["ignore", "pipe", "pipe"] });
      child = spawned;
      let stdout = "";
      let stderr = "";
      spawned.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      spawned.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL)));
      spawned.on("error", reject);
      spawned.on("close", (code, signal) => {
        child = undefined;
        const durationMs = Math.round(performance.now() - started);
        if (code === 0) {
          options.metrics.reindexRuns.inc({ outcome: "success" });
          options.logger.info({ event: "index", ...summaryFields(stdout), duration_ms: durationMs }, "skills re-indexed");
          options.onIndexed();
          return resolve();
        }
        options.metrics.reindexRuns.inc({ outcome: "failure" });
        const error = failure(stderr, code, signal);
        options.logger.error({ event: "index", code: error.code, err: error.message, duration_ms: durationMs }, "re-indexing failed; still serving the previous index");
        reject(error);
      });
    });

  const run = (): Promise<void> => {
    if (!current) {
      current = runOnce().finally(() => (current = undefined));
      return current;
    }
    queued ??= current
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return run();
      });
    return queued;
  };

  return {
    run,
    close() {
      closed = true;
      child?.kill("SIGTERM");
    },
  };
}

/** The counts of `router index --json`'s summary, for the log line. */
function summaryFields(stdout: string): Record<string, number> {
  try {
    const summary = JSON.parse(stdout) as { skills: number; indexVersion: number; added: unknown[]; updated: unknown[]; removed: unknown[]; invalid: unknown[] };
    return { index_version: summary.indexVersion, skills: summary.skills, added: summary.added.length, updated: summary.updated.length, removed: summary.removed.length, invalid: summary.invalid.length };
  } catch {
    return {};
  }
}

/** The CLI reports `error [CODE]: message`; keep its code so readiness and logs say the real reason. */
function failure(stderr: string, code: number | null, signal: NodeJS.Signals | null): RouterError {
  const match = /error \[([A-Z_]+)\]: (.*)/.exec(stderr);
  if (match && match[1]! in ERROR_CATALOGUE) return createError(match[1] as ErrorCode, match[2]!);
  return createError("INTERNAL_ERROR", `router index ${signal ? `was stopped by ${signal}` : `exited with code ${code}`}: ${stderr.trim().split("\n").slice(-3).join(" ")}`);
}
