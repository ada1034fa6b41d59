// Child process of the scale bench: loads a copy of one index, routes distinct queries one at a time, then has the
// copy rewritten and measures the reload, and prints JSON. Its own process, so RSS is the router's alone.
// Usage: node --import tsx bench/route-probe.ts <db> <queries.json> [warmup]
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import Database from "better-sqlite3";
import { percentiles } from "../src/eval/metrics.js";
import { createRouter, type Router } from "../src/route/router.js";

export interface ProbeResult {
  loadMs: number;
  /** The cross-encoder the router loaded by itself, if any (it adds its stage to every route). */
  reranker: string | null;
  queries: number;
  /** route() wall clock, query embedding included (every query distinct, so the encoder's cache never hits). */
  withEmbed: { p50: number; p95: number; p99: number };
  /** Retrieval, scoring, decision and explanation: the route's total minus its embedding stage. */
  withoutEmbed: { p50: number; p95: number; p99: number };
  /** p50 of the route's own stages: where the time without embedding goes. */
  stagesP50: { embed: number; retrieve: number; score: number };
  /** Resident memory after the measured routes, before any reload. */
  rssMb: number;
  reload: ReloadFigures;
}

/** What a reload of the whole index version costs while serving. */
export interface ReloadFigures {
  /** Wall clock of refresh() on an idle process. */
  ms: number;
  /** The longest the event loop was held during that refresh (a 1 ms timer's worst delay). */
  longestStallMs: number;
  /** Routes answered back to back during a second refresh, and how many of them failed. */
  routesDuring: number;
  failedDuring: number;
  /** The slowest of those routes (embedding included). */
  slowestRouteMs: number;
  /** Resident memory after both reloads. */
  rssMbAfter: number;
}

const [db, queriesFile, warmupArg] = process.argv.slice(2);
const queries = JSON.parse(readFileSync(queriesFile!, "utf8")) as string[];
const warmup = Number(warmupArg ?? 20);
// A copy, so the reload phase can commit a new version without touching the cached index.
const dir = mkdtempSync(path.join(tmpdir(), "bench-probe-index-"));
const copy = path.join(dir, "index.db");
copyFileSync(db!, copy);
if (existsSync(`${db}-wal`)) copyFileSync(`${db}-wal`, `${copy}-wal`);
const started = performance.now();
const router = await createRouter({ db: copy });
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
const rssMb = process.memoryUsage().rss / 1024 / 1024;
const reload = await measureReload(router, copy, queries);
const report: ProbeResult = {
  loadMs,
  reranker: router.status().reranker,
  queries: withEmbed.length,
  withEmbed: percentiles(withEmbed),
  withoutEmbed: percentiles(withoutEmbed),
  stagesP50: { embed: percentiles(stages.embed).p50, retrieve: percentiles(stages.retrieve).p50, score: percentiles(stages.score).p50 },
  rssMb,
  reload,
};
await router.close();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(JSON.stringify(report));

/** Commits a new version of the copy (as `router fit` would: the meta table changes) twice: once idle, once while routing. */
async function measureReload(router: Router, file: string, queries: string[]): Promise<ReloadFigures> {
  const writer = new Database(file);
  const commitVersion = (round: number) => writer.prepare("UPDATE meta SET value = ? WHERE key = 'updated_at'").run(`bench reload ${round}`);
  try {
    commitVersion(1);
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const begun = performance.now();
    if (!(await router.refresh())) throw new Error("the probe's reload found no new version");
    const ms = performance.now() - begun;
    delay.disable();
    commitVersion(2);
    let done = false;
    const reloading = router.refresh().finally(() => (done = true));
    let routesDuring = 0;
    let failedDuring = 0;
    let slowestRouteMs = 0;
    // Queries never routed before (a numbered suffix keeps them distinct however often the list comes round): each is
    // embedded and scored while the load runs. A cached answer would never yield to the load, and the loop never end.
    for (let at = 0; !done; at = (at + 1) % queries.length) {
      const begun = performance.now();
      await router.route(`${queries[at]} (again ${routesDuring})`).catch(() => failedDuring++);
      slowestRouteMs = Math.max(slowestRouteMs, performance.now() - begun);
      routesDuring++;
    }
    if (!(await reloading)) throw new Error("the probe's second reload found no new version");
    return { ms, longestStallMs: delay.max / 1e6, routesDuring, failedDuring, slowestRouteMs, rssMbAfter: process.memoryUsage().rss / 1024 / 1024 };
  } finally {
    writer.close();
  }
}
