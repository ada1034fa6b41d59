import { spawn, type ChildProcess } from "node:child_process";
import { createError, ERROR_CATALOGUE, type ErrorCode, type RouterError } from "../errors.js";
import type { Logger } from "./logger.js";
import type { ServerMetrics } from "./metrics.js";

export interface IndexRunnerOptions {
  /** The `router` CLI script; the index runs in a child process so embedding never stalls the server. */
  cli: string;
  /** What the run does: `indexRun(paths)` or `FEEDBACK_RUN`. */
  run: RunKind;
  db: string;
  /** The server's config file: the run reads the same (the environment it inherits anyway). */
  configFile?: string;
  logger: Logger;
  /** Counts the runs, when the caller exports metrics (`router serve` does, `router mcp` does not). */
  metrics?: ServerMetrics;
  /** Called after each successful run (the server then reloads at once instead of at the next poll), and awaited: a run's new version is served once `run()` resolves. */
  onIndexed: () => Promise<unknown>;
}

/** A command that writes the index, and the log lines it gets. */
export interface RunKind {
  command: string[];
  event: string;
  done: string;
  failed: string;
}

/** `router index` of the watched folders. */
export function indexRun(paths: string[]): RunKind {
  return { command: ["index", ...paths], event: "index", done: "skills re-indexed", failed: "re-indexing failed; still serving the previous index" };
}

/** `router feedback apply`: what users said of answers, folded into the index. */
export const FEEDBACK_RUN: RunKind = { command: ["feedback", "apply"], event: "feedback_apply", done: "feedback applied", failed: "applying feedback failed; still serving the previous index" };

export interface IndexRunner {
  /** Runs `router index`; while one runs, callers share one more run after it (files may have changed since it read them). */
  run(): Promise<void>;
  /** Stops a run in progress (index runs commit in one transaction, so the index stays as it was). */
  close(): void;
}

// Enough of a failed run's stderr to show the reason without flooding the log.
const STDERR_TAIL = 4000;
// Files a run could not index, each logged with its reason; a folder of thousands of bad files logs the first few.
const LOGGED_INVALID = 20;

export function createIndexRunner(options: IndexRunnerOptions): IndexRunner {
  let current: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  let child: ChildProcess | undefined;
  let closed = false;

  const runOnce = (): Promise<void> =>
    new Promise((resolve, reject) => {
      if (closed) return reject(createError("INTERNAL_ERROR", "the server is shutting down"));
      const started = performance.now();
      const config = options.configFile ? ["--config", options.configFile] : [];
      const spawned = spawn(process.execPath, [options.cli, ...options.run.command, "--db", options.db, ...config, "--json"], { stdio: ["ignore", "pipe", "pipe"] });
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
          options.metrics?.reindexRuns.inc({ outcome: "success" });
          const summary = readSummary(stdout);
          options.logger.info({ event: options.run.event, ...(summary ? summaryFields(summary) : {}), duration_ms: durationMs }, options.run.done);
          logInvalid(options.logger, summary?.invalid ?? []);
          void options.onIndexed().then(() => resolve());
          return;
        }
        options.metrics?.reindexRuns.inc({ outcome: "failure" });
        const error = failure(stderr, code, signal);
        options.logger.error({ event: options.run.event, code: error.code, err: error.message, duration_ms: durationMs }, options.run.failed);
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

/** What `router index --json` (or `router feedback apply --json`, which has the version only) printed, as far as the log needs it. */
interface RunSummary {
  indexVersion: number;
  skills?: number;
  added?: unknown[];
  updated?: unknown[];
  removed?: unknown[];
  invalid?: { file: string; reason: string }[];
}

function readSummary(stdout: string): RunSummary | undefined {
  try {
    return JSON.parse(stdout) as RunSummary;
  } catch {
    return undefined;
  }
}

/** The counts of the summary, for the log line. */
function summaryFields(summary: RunSummary): Record<string, number | undefined> {
  return {
    index_version: summary.indexVersion,
    skills: summary.skills,
    added: summary.added?.length,
    updated: summary.updated?.length,
    removed: summary.removed?.length,
    invalid: summary.invalid?.length,
  };
}

/** One warning per file the run could not index, naming the file and why: a count alone says nothing to fix. */
function logInvalid(logger: Logger, invalid: NonNullable<RunSummary["invalid"]>): void {
  for (const problem of invalid.slice(0, LOGGED_INVALID)) logger.warn({ event: "index_invalid", file: problem.file, reason: problem.reason }, "skill file not indexed");
  if (invalid.length > LOGGED_INVALID)
    logger.warn({ event: "index_invalid", more: invalid.length - LOGGED_INVALID }, `and ${invalid.length - LOGGED_INVALID} more skill files not indexed (router index lists them all)`);
}

/** The CLI reports `error [CODE]: message`; keep its code so readiness and logs say the real reason. */
function failure(stderr: string, code: number | null, signal: NodeJS.Signals | null): RouterError {
  const match = /error \[([A-Z_]+)\]: (.*)/.exec(stderr);
  if (match && match[1]! in ERROR_CATALOGUE) return createError(match[1] as ErrorCode, match[2]!);
  return createError("INTERNAL_ERROR", `the run ${signal ? `was stopped by ${signal}` : `exited with code ${code}`}: ${stderr.trim().split("\n").slice(-3).join(" ")}`);
}
