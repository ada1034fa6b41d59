import { shippedProcess } from "./shipped-serve-process.js";
import { ms, runLine, table } from "./format-figures.js";
import type { HttpFigures } from "./http-load.js";
import type { BenchResults } from "./results-store.js";

export const SCALE_HEADING = "## Scale";
export const HTTP_HEADING = "## Over HTTP";

/** Index throughput and size, then route latency with and without the query embedding, and RSS, per size. */
export function scaleSection(scale: NonNullable<BenchResults["scale"]>): string {
  const builds = scale.sizes.map(({ build }) => [
    build.skills.toLocaleString("en-US"),
    build.texts.toLocaleString("en-US"),
    build.seconds.toFixed(0),
    build.skillsPerSecond.toFixed(1),
    build.textsPerSecond.toFixed(0),
    build.sizeMb.toFixed(1),
    `${build.builtAt.slice(0, 10)}${build.cached ? " (cached)" : ""}`,
  ]);
  const routes = scale.sizes.map(({ build, probe }) => [
    build.skills.toLocaleString("en-US"),
    (probe.loadMs / 1000).toFixed(1),
    `${ms(probe.withEmbed.p50)} / ${ms(probe.withEmbed.p99)}`,
    `${ms(probe.withoutEmbed.p50)} / ${ms(probe.withoutEmbed.p99)}`,
    `${ms(probe.stagesP50.embed)} / ${ms(probe.stagesP50.retrieve)} / ${ms(probe.stagesP50.score)}`,
    probe.rssMb.toFixed(0),
  ]);
  const reloads = scale.sizes.map(({ build, probe: { reload } }) => [
    build.skills.toLocaleString("en-US"),
    ms(reload.ms),
    ms(reload.longestStallMs),
    `${reload.routesDuring} / ${reload.failedDuring}`,
    ms(reload.slowestRouteMs),
    reload.rssMbAfter.toFixed(0),
  ]);
  return [
    SCALE_HEADING,
    "",
    "Sub-corpora of the real skills and tools in ../shared/corpus (SKILL.md folders, Smithery MCP tools, Seal-Tools",
    "functions), drawn in one fixed pseudo-random order so each size holds every kind in proportion and contains the",
    "smaller ones. Skills with a repeated name or no description are left out before drawing; a size beyond what is",
    "left (16,289 items in ../shared/corpus) adds synthetic copies of the tools, their server or function renamed",
    "`-copy-N`. Heuristic manifests, offline embedder. The first build of each size is cached in `bench/.cache/`, and",
    "its figures are reported from then on, until the schema, the embedder or the heuristic expander's version changes.",
    "",
    table(["skills", "embedded texts", "first build (s)", "skills/s", "texts/s", "index MB", "built"], builds),
    "",
    "Route latency, in-process, one query at a time, every query distinct (the query cache never hits), in a child",
    "process per size so RSS is the router's alone (model, index, retrievers). *Without embedding* is the route's",
    "own total minus its embedding stage: retrieval, signals, scoring, decision and explanation. The router runs as",
    `configured by default; its cross-encoder stage: ${scale.sizes.find(({ probe }) => probe.reranker)?.probe.reranker ?? "off (model files absent)"}.`,
    "",
    table(["skills", "load (s)", "p50 / p99 ms with embedding", "p50 / p99 ms without embedding", "p50 ms embed / retrieve / score", "RSS MB"], routes),
    "",
    "Reloads, in the same child on a copy of the index: a new version is committed (the meta table changes, as `router fit`",
    "does, so the whole version loads again) and `refresh()` runs, first on an idle process, with a 1 ms",
    "`monitorEventLoopDelay` timer taking the longest time the event loop was held; then again while the child routes",
    "distinct queries back to back, counting those that failed. RSS is taken after both reloads (the replaced versions",
    "wait for the garbage collector).",
    "",
    table(["skills", "reload ms", "longest event-loop stall ms", "routes / failed during a reload", "slowest of those routes ms", "RSS MB after"], reloads),
    "",
    runLine(scale.run, "npm run bench -- --only scale"),
    "",
  ].join("\n");
}

/** POST /route under load: latency and throughput per concurrency, with errors counted. */
export function httpSection(http: NonNullable<BenchResults["http"]>): string {
  const rows = http.figures.flatMap((figures: HttpFigures) =>
    figures.runs.map((run) => [
      figures.skills.toLocaleString("en-US"),
      String(run.connections),
      String(run.requests),
      run.requestsPerSecond.toFixed(0),
      ms(run.latencyMs.p50),
      ms(run.latencyMs.p95),
      ms(run.latencyMs.p99),
      String(run.errors),
      String(run.timeouts),
      String(run.non2xx),
      figures.serverRssMb.toFixed(0),
    ]),
  );
  return [
    HTTP_HEADING,
    "",
    "`router serve` (the built CLI, default settings, decision log on) in a child process on 127.0.0.1, run as the Docker",
    `image runs it (${shippedProcess()}), loaded by autocannon from the bench process,`,
    'over the scale indexes. Each request is `POST /route {"query": ...}` with a query not sent before (eval-set',
    "queries), so every one is embedded; latency is client-side, per response. Both processes share the machine's 2",
    "cores, so the concurrent runs measure throughput, not latency.",
    "",
    table(["skills", "connections", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors", "timeouts", "non-2xx", "server RSS MB"], rows),
    "",
    runLine(http.run, "npm run bench -- --only http"),
    "",
  ].join("\n");
}
