import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { DatasetFigures } from "./accuracy.js";
import type { TriggerDevFigures } from "./trigger-dev-eval.js";
import type { HttpFigures } from "./http-load.js";
import type { ProbeResult } from "./route-probe.js";
import type { RunInfo } from "./run-info.js";
import type { ScaleBuild } from "./scale-index.js";

export interface ScaleFigures {
  build: ScaleBuild;
  probe: ProbeResult;
}

/** The latest figures of each part of the benchmark (parts can be re-run alone); RESULTS.md is rendered from them. */
export interface BenchResults {
  trigger?: { run: RunInfo; figures: TriggerDevFigures[] };
  /** `reranker`: the cross-encoder's id, or why it was unavailable (then method f was not measured). */
  accuracy?: { run: RunInfo; reranker: string; datasets: DatasetFigures[] };
  scale?: { run: RunInfo; sizes: ScaleFigures[] };
  http?: { run: RunInfo; figures: HttpFigures[] };
}

export function readResults(file: string): BenchResults {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as BenchResults) : {};
}

export function writeResults(file: string, results: BenchResults): void {
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}
