import { execFileSync } from "node:child_process";
import os from "node:os";

/** Where and when a part of the benchmark ran: enough to tell whether two figures are comparable. */
export interface RunInfo {
  date: string;
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  embedder: string;
  commit: string;
  /** 1-minute load average at the start and the end: the machine is shared, so say how busy it was. */
  loadStart: number;
  loadEnd?: number;
  seconds?: number;
}

export function startRun(embedder: string): RunInfo {
  return {
    date: new Date().toISOString(),
    cpu: os.cpus()[0]?.model.trim() ?? "unknown CPU",
    cores: os.cpus().length,
    memoryGb: os.totalmem() / 1024 ** 3,
    node: process.version,
    embedder,
    commit: commitDescription(),
    loadStart: os.loadavg()[0]!,
  };
}

export function finishRun(run: RunInfo, started: number): RunInfo {
  return { ...run, loadEnd: os.loadavg()[0]!, seconds: (performance.now() - started) / 1000 };
}

// What the benches write: a run that follows another part of the same run is still at the same commit.
const RESULT_FILES = ["bench/RESULTS.md", "bench/results.json", "bench/accuracy-latency.svg"];

/** The short commit, marked when src/ or bench/ had uncommitted changes other than the benches' own results. */
function commitDescription(): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no", "--", "src", "bench", ...RESULT_FILES.map((file) => `:(exclude)${file}`)], { encoding: "utf8" }).trim() !== "";
    return dirty ? `${commit} + uncommitted changes` : commit;
  } catch {
    return "unknown (not a git checkout)";
  }
}
