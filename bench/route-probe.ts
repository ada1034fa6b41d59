// Child process of the scale bench: loads one index, routes distinct queries one at a time, prints JSON.
// Its own process, so RSS is the router's alone. Usage: node --import tsx bench/route-probe.ts <db> <queries.json> [warmup]
import { readFileSync } from "node:fs";
import { percentiles } from "../src/eval/metrics.js";
import { createRouter } from "../src/route/router.js";

export interface ProbeResult {
  loadMs: number;
  /** The cross-encoder the router loaded by itself, if any (it adds its stage to every route). */
  reranker: string | null;
  queries: number;
  /** route() wall clock, query embedding included (every query distinct, so the encoder's cache never hits). */
  withEmbed: { p50: number; p95: number; p99: number };
  /** Retrieval, scoring, fusion, decision and explanation: the route's total minus its embedding stage. */
  withoutEmbed: { p50: number; p95: number; p99: number };
  /** p50 of the route's own stages: where the time without embedding goes. */
  stagesP50: { embed: number; retrieve: number; score: number };
  rssMb: number;
}

const [db, queriesFile, warmupArg] = process.argv.slice(2);
const queries = JSON.parse(readFileSync(queriesFile!, "utf8")) as string[];
const warmup = Number(warmupArg ?? 20);
const started = performance.now();
const router = await createRouter({ db: db! });
const loadMs = performance.now() - started;
for (const query of queries.slice(0, warmup)) await router.route(query);
const withEmbed: number[] = [];
const withoutEmbed: number[] = [];
const stages = { embed: [] as number[], retrieve: [] as number[], score: [] as number[] };
for (const query of queries.slice(warmup)) {
  const begun = performance.now();
  const result = await router.route(query);
  withEmbed.push(performance.now() - begun);
  withoutEmbed.push(result.timing_ms.total - result.timing_ms.embed);
  for (const stage of ["embed", "retrieve", "score"] as const) stages[stage].push(result.timing_ms[stage]);
}
const report: ProbeResult = {
  loadMs,
  reranker: router.status().reranker,
  queries: withEmbed.length,
  withEmbed: percentiles(withEmbed),
  withoutEmbed: percentiles(withoutEmbed),
  stagesP50: { embed: percentiles(stages.embed).p50, retrieve: percentiles(stages.retrieve).p50, score: percentiles(stages.score).p50 },
  rssMb: process.memoryUsage().rss / 1024 / 1024,
};
await router.close();
process.stdout.write(JSON.stringify(report));
