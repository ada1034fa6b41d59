import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readEvalSet, type EvalSet } from "../src/eval/eval-set.js";
import { planEmbedder } from "../src/models/create-embedder.js";
import { createReranker } from "../src/models/create-reranker.js";
import { MAX_QUERY_CHARS } from "../src/contract/limits.js";
import type { FitSample } from "../src/fit/fit-params.js";
import type { RoutingParams } from "../src/route/routing-params.js";
import { measureDataset, type DatasetSpec } from "./accuracy.js";
import { fitDefaults, trainingSamples } from "./default-fit.js";
import { TRIGGER_HEADING, triggerSection } from "./render-trigger.js";
import { measureTriggerDev, type DistractorSet } from "./trigger-dev-eval.js";
import { accuracyLatencyChart } from "./chart-svg.js";
import { measureHttp, type HttpFigures, type HttpPlan } from "./http-load.js";
import { ACCURACY_HEADING, accuracySection } from "./render-accuracy.js";
import { HTTP_HEADING, httpSection, SCALE_HEADING, scaleSection } from "./render-scale.js";
import { replaceSections } from "./results-file.js";
import { readResults, writeResults, type BenchResults, type ScaleFigures } from "./results-store.js";
import type { ProbeResult } from "./route-probe.js";
import { finishRun, startRun } from "./run-info.js";
import { readCorpus, sampleCorpus } from "./scale-corpus.js";
import { scaleIndex } from "./scale-index.js";
import { TARGETS_HEADING, targetsSection } from "./targets.js";

export type BenchPart = "trigger" | "accuracy" | "scale" | "http";

export interface BenchConfig {
  parts: BenchPart[];
  /** The trigger part's eval folder (like ../shared/eval/trigger-dev), its sets of distractor skills, and the sets whose no-skill requests it routes as everyday requests. */
  trigger: { evalDir: string; distractorSets: DistractorSet[]; everydaySets: string[] };
  datasets: DatasetSpec[];
  /** The labelled sets whose training halves fit the defaults (`bench/fit-defaults.ts`), for the leave-one-dataset-out rows. */
  fitSets: { name: string; file: string }[];
  /** A corpus laid out like ../shared/corpus. */
  corpus: string;
  sizes: number[];
  /** Distinct queries each scale probe routes (after its warm-up). */
  probeQueries: number;
  probeWarmup: number;
  /** The scale sizes the HTTP bench serves, and its load plan. */
  httpSizes: number[];
  http: HttpPlan;
  cacheDir: string;
  /** Where results.json, RESULTS.md and the chart go. */
  resultsJson: string;
  resultsMd: string;
  chartSvg: string;
  /** Rebuild the cached scale indexes (and re-measure their build). */
  fresh: boolean;
  log: (message: string) => void;
}

const PROBE_SCRIPT = fileURLToPath(new URL("./route-probe.ts", import.meta.url));

/** Runs the chosen parts, keeps the other parts' latest figures, and renders RESULTS.md sections and the chart. */
export async function runBench(config: BenchConfig): Promise<BenchResults> {
  mkdirSync(config.cacheDir, { recursive: true });
  const results = readResults(config.resultsJson);
  const embedder = planEmbedder().id;
  // Each eval set read once: the accuracy part measures on it, the scale and HTTP parts route its queries.
  const sets = config.datasets.map((spec) => readEvalSet(spec.file));
  const queries = distinctQueries(sets);

  if (config.parts.includes("trigger")) {
    const started = performance.now();
    const run = startRun(embedder);
    const figures = [];
    for (const distractors of config.trigger.distractorSets) {
      for (const track of distractors.tracks) {
        figures.push(
          await measureTriggerDev({
            evalDir: config.trigger.evalDir,
            distractors,
            track,
            cacheDir: path.join(config.cacheDir, "trigger-dev"),
            fresh: config.fresh,
            everydaySets: config.trigger.everydaySets,
            log: config.log,
          }),
        );
      }
    }
    results.trigger = { run: finishRun(run, started), figures };
  }

  if (config.parts.includes("accuracy")) {
    const started = performance.now();
    const run = startRun(embedder);
    const reranker = await createReranker();
    try {
      const cacheDir = path.join(config.cacheDir, "eval");
      const unseenDefaults = await leaveOneDatasetOut(config.fitSets, cacheDir, embedder, config.log);
      const datasets = [];
      for (const [index, spec] of config.datasets.entries()) datasets.push(await measureDataset(spec, sets[index]!, { cacheDir, reranker, unseenDefaults, log: config.log }));
      results.accuracy = { run: finishRun(run, started), reranker: reranker.status === "ready" ? reranker.reranker.id : reranker.reason, datasets };
    } finally {
      if (reranker.status === "ready") await reranker.reranker.close();
    }
  }

  // The scale part's run covers its index builds too: their load average is the one that matters.
  const scaleStarted = performance.now();
  const scaleRun = startRun(embedder);
  const scaleIndexes = new Map<number, Awaited<ReturnType<typeof scaleIndex>>>();
  if (config.parts.includes("scale") || config.parts.includes("http")) {
    const items = readCorpus(config.corpus);
    for (const size of [...new Set([...config.sizes, ...config.httpSizes])].sort((a, b) => a - b)) {
      if (!config.parts.includes("scale") && !config.httpSizes.includes(size)) continue;
      config.log(`scale ${size}: building or reusing the index (a first 10,000-skill build takes minutes)`);
      const { db, build } = await scaleIndex(sampleCorpus(items, size), size, config.cacheDir, config.fresh);
      scaleIndexes.set(size, { db, build });
      config.log(`scale ${size}: ${build.skills} skills, ${build.texts} texts, built in ${build.seconds.toFixed(0)} s${build.cached ? " (cached)" : ""}`);
    }
  }

  if (config.parts.includes("scale")) {
    const sizes: ScaleFigures[] = [];
    for (const size of config.sizes) {
      const { db, build } = scaleIndexes.get(size)!;
      const probe = probeRoutes(db, queries.slice(0, config.probeWarmup + config.probeQueries), config.probeWarmup);
      config.log(`scale ${size}: p50 ${probe.withEmbed.p50.toFixed(1)} ms with embedding, ${probe.withoutEmbed.p50.toFixed(2)} ms without`);
      sizes.push({ build, probe });
    }
    results.scale = { run: finishRun(scaleRun, scaleStarted), sizes };
  }

  if (config.parts.includes("http")) {
    const started = performance.now();
    const run = startRun(embedder);
    const figures: HttpFigures[] = [];
    for (const size of config.httpSizes) {
      const { db, build } = scaleIndexes.get(size)!;
      figures.push(await measureHttp(db, build.skills, queries, config.http));
      config.log(
        `http ${size}: ${figures
          .at(-1)!
          .runs.map((entry) => `${entry.connections} conn ${entry.requestsPerSecond.toFixed(0)} req/s p50 ${entry.latencyMs.p50.toFixed(1)} ms`)
          .join("; ")}`,
      );
    }
    results.http = { run: finishRun(run, started), figures };
  }

  writeResults(config.resultsJson, results);
  render(results, config);
  return results;
}

/**
 * Default parameters fitted as `bench/fit-defaults.ts` does, but without one eval set: what a new user's index
 * gets for data like it (undefined when no other set is left). MetaTool leaves out both its forms.
 */
async function leaveOneDatasetOut(fitSets: BenchConfig["fitSets"], cacheDir: string, embedder: string, log: (message: string) => void): Promise<(name: string) => RoutingParams | undefined> {
  const samples = new Map<string, FitSample[]>();
  for (const set of fitSets) samples.set(set.name, await trainingSamples(set.file, cacheDir, log));
  const fitted = new Map<string, RoutingParams>();
  return (name) => {
    const others = new Map([...samples].filter(([set]) => set !== name && set !== `${name}-noexamples`));
    if (others.size === 0) return undefined;
    if (!fitted.has(name)) fitted.set(name, fitDefaults(others, embedder).params);
    return fitted.get(name);
  };
}

function render(results: BenchResults, config: BenchConfig): void {
  const sections: { heading: string; text: string }[] = [];
  if (results.trigger) sections.push({ heading: TRIGGER_HEADING, text: triggerSection(results.trigger) });
  if (results.accuracy) {
    writeFileSync(config.chartSvg, accuracyLatencyChart(results.accuracy.datasets));
    sections.push({ heading: ACCURACY_HEADING, text: accuracySection(results.accuracy, path.relative(path.dirname(config.resultsMd), config.chartSvg)) });
  }
  if (results.scale) sections.push({ heading: SCALE_HEADING, text: scaleSection(results.scale) });
  if (results.http) sections.push({ heading: HTTP_HEADING, text: httpSection(results.http) });
  sections.push({ heading: TARGETS_HEADING, text: targetsSection(results) });
  replaceSections(config.resultsMd, sections);
}

/** Every eval query the server would accept, once each, in a fixed order that mixes the sets. */
function distinctQueries(sets: EvalSet[]): string[] {
  const lists = sets.map((set) => [...new Set(set.cases.map((item) => item.query.trim()))].filter((query) => query !== "" && query.length <= MAX_QUERY_CHARS));
  const mixed: string[] = [];
  for (let index = 0; lists.some((list) => index < list.length); index++) for (const list of lists) if (index < list.length) mixed.push(list[index]!);
  return [...new Set(mixed)];
}

/** Route latency and RSS of one index, measured in a child process of its own. */
function probeRoutes(db: string, queries: string[], warmup: number): ProbeResult {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-probe-"));
  try {
    const file = path.join(dir, "queries.json");
    writeFileSync(file, JSON.stringify(queries));
    const output = execFileSync(process.execPath, ["--import", "tsx", PROBE_SCRIPT, db, file, String(warmup)], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 * 1024 * 1024 });
    return JSON.parse(output) as ProbeResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
