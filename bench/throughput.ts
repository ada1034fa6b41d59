// Throughput of the serving path against the embedding-bound rate, all measured in one run on the same queries:
// (a) the embedding-bound rate: the offline model embedding distinct queries on as many worker threads as the
//     server runs, at the batch size that gives the most texts/s;
// (b) cold cache: createRouter().route() in process and `router serve` over HTTP at 1, 4, 8 and 16 concurrent
//     requests, every query distinct (each one is embedded);
// (c) warm cache: the same, on queries already embedded (only routing is left);
// and what the batch window costs a lone query, and how long routing takes once the query is embedded.
// Usage: npx tsx bench/throughput.ts [--skills 1000,10000] [--workers N] [--max-batch 32] [--batch-window-ms 2] [--requests 600] [--no-write]
// Writes the "## Throughput" section of bench/RESULTS.md. Reads ../shared/eval and ../shared/corpus; the indexes
// are built once into bench/.cache (10,000 skills: a few minutes).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { DEFAULT_SETTINGS } from "../src/config/settings.js";
import { readEvalSet } from "../src/eval/eval-set.js";
import { percentiles } from "../src/eval/metrics.js";
import type { Embedder } from "../src/models/embedder.js";
import { startEmbedderWorker } from "../src/models/model-worker-client.js";
import { createQueryEncoder, type QueryEncoder } from "../src/models/query-encoder.js";
import { MAX_QUERY_CHARS } from "../src/contract/limits.js";
import { createRouter, type Router } from "../src/route/router.js";
import { openIndexForRead } from "../src/store/database.js";
import { readMeta } from "../src/store/index-meta.js";
import { ms, runLine, table } from "./format-figures.js";
import { replaceSections } from "./results-file.js";
import { finishRun, startRun } from "./run-info.js";
import { readCorpus, sampleCorpus } from "./scale-corpus.js";
import { scaleIndex } from "./scale-index.js";
import { shippedProcess } from "./shipped-serve-process.js";
import { BUILT_CLI, buildCli, rssMbOf, startRouterServe, stopRouterServe, type RouterServeChild } from "./router-serve-child.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const shared = path.resolve(repo, "..", "shared");
const EVAL_SETS = ["clinc150", "metatool", "bfcl"].map((name) => path.join(shared, "eval", `${name}.json`));
const CACHE = path.join(repo, "bench", ".cache");
const RESULTS = path.join(repo, "bench", "RESULTS.md");
const CONNECTIONS = [1, 4, 8, 16];
const BATCH_SIZES = [1, 2, 4, 8, 16, 32];
// Texts each batch size embeds when the embedding-bound rate is measured (split across the workers).
const RATE_TEXTS = 960;
// Distinct queries routed first and not measured: the model's first calls are slower.
const WARMUP = 50;
// Queries the warm-cache runs repeat (all embedded during the cold runs, so all in the query cache).
const WARM_SET = 200;
// Lone queries per encoder when measuring what the batch window costs one request.
const LONE_QUERIES = 200;
// The worker-count comparison: HTTP, cold, this many connections, this many alternating rounds.
const COMPARE_CONNECTIONS = 8;
const COMPARE_ROUNDS = 3;
const TICK_MS = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));

const { values: args } = parseArgs({
  options: {
    skills: { type: "string", default: "1000,10000" },
    workers: { type: "string", default: String(DEFAULT_SETTINGS.embedWorkers) },
    "max-batch": { type: "string", default: String(DEFAULT_SETTINGS.embedMaxBatch) },
    "batch-window-ms": { type: "string", default: String(DEFAULT_SETTINGS.embedBatchWindowMs) },
    "compare-workers": { type: "string", default: "1,2" },
    requests: { type: "string", default: "600" },
    "no-write": { type: "boolean", default: false },
  },
});
const sizes = args.skills.split(",").map(Number);
const batching = { workers: Number(args.workers), maxBatch: Number(args["max-batch"]), batchWindowMs: Number(args["batch-window-ms"]) };
const requests = Number(args.requests);
const log = (message: string) => process.stderr.write(`${message}\n`);

interface Run {
  skills: number;
  path: "in process" | "HTTP";
  cache: "cold" | "warm";
  connections: number;
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU per request of the routing process's main thread (HTTP, routing, answering) and of its other threads (embedding workers, V8's and libuv's helpers). */
  cpuMsPerRequest: { main: number; workers: number };
}

/** CPU time used so far by a process and by its main thread (utime + stime from /proc, in ms): unlike wall time, it hardly depends on what else the machine runs. */
function cpuMs(pid: number): { total: number; main: number } {
  const read = (file: string) => {
    const fields = readFileSync(file, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  };
  return { total: read(`/proc/${pid}/stat`), main: read(`/proc/${pid}/task/${pid}/stat`) };
}

/** Runs `work` and says how much CPU process `pid` spent on it, per request, on its main thread and on the others. */
async function measuredCpu<T extends { latencies: number[]; errors: number }>(pid: number, work: () => Promise<T>): Promise<T & { cpu: Run["cpuMsPerRequest"] }> {
  const before = cpuMs(pid);
  const outcome = await work();
  const after = cpuMs(pid);
  const done = outcome.latencies.length + outcome.errors;
  const main = (after.main - before.main) / done;
  return { ...outcome, cpu: { main, workers: (after.total - before.total) / done - main } };
}

/** Real user messages from the eval sets that the API accepts, distinct, in a fixed order that mixes the sets (by hash). */
function distinctQueries(): string[] {
  const queries = new Set<string>();
  for (const file of EVAL_SETS) for (const item of readEvalSet(file).cases) if (item.query.trim() !== "" && item.query.length <= MAX_QUERY_CHARS) queries.add(item.query);
  const order = new Map([...queries].map((query) => [query, createHash("sha256").update(query).digest("hex")]));
  return [...queries].sort((a, b) => (order.get(a)! < order.get(b)! ? -1 : 1));
}

/** Texts per second the workers embed at each batch size, every worker busy with its own share. */
async function embeddingRates(embedder: string, queries: string[]): Promise<{ batch: number; textsPerSecond: number; cpuMsPerText: number }[]> {
  const workers: Embedder[] = await Promise.all(Array.from({ length: batching.workers }, () => startEmbedderWorker({ indexEmbedder: embedder })));
  try {
    await Promise.all(workers.map((worker, index) => worker.embed(queries.slice(index * 64, (index + 1) * 64))));
    const rates: { batch: number; textsPerSecond: number; cpuMsPerText: number }[] = [];
    for (const batch of BATCH_SIZES) {
      const share = Math.ceil(RATE_TEXTS / workers.length);
      const cpuBefore = cpuMs(process.pid);
      const started = performance.now();
      await Promise.all(
        workers.map(async (worker, index) => {
          const mine = queries.slice(index * share, (index + 1) * share);
          for (let start = 0; start < mine.length; start += batch) await worker.embed(mine.slice(start, start + batch));
        }),
      );
      const cpuAfter = cpuMs(process.pid);
      const texts = share * workers.length;
      rates.push({ batch, textsPerSecond: texts / ((performance.now() - started) / 1000), cpuMsPerText: (cpuAfter.total - cpuAfter.main - (cpuBefore.total - cpuBefore.main)) / texts });
      log(`  batch ${batch}: ${rates.at(-1)!.textsPerSecond.toFixed(0)} texts/s, ${rates.at(-1)!.cpuMsPerText.toFixed(2)} CPU ms/text`);
    }
    return rates;
  } finally {
    await Promise.all(workers.map((worker) => worker.close()));
  }
}

/** p50 of a lone query (nothing else in flight) through an encoder with the configured window and one with none, alternating. */
async function windowCost(embedder: string, queries: string[]): Promise<{ withWindow: number; withoutWindow: number }> {
  const encoders = await Promise.all([batching.batchWindowMs, 0].map((batchWindowMs) => createQueryEncoder({ indexEmbedder: embedder, ...batching, batchWindowMs })));
  try {
    const times: number[][] = [[], []];
    for (const [index, query] of queries.slice(0, 2 * LONE_QUERIES).entries()) {
      const started = performance.now();
      await encoders[index % 2]!.embedQuery(query);
      times[index % 2]!.push(performance.now() - started);
    }
    return { withWindow: percentiles(times[0]!).p50, withoutWindow: percentiles(times[1]!).p50 };
  } finally {
    await Promise.all(encoders.map((encoder) => encoder.close()));
  }
}

/** `concurrency` callers, each sending the next query as soon as its last one is answered. */
async function drive(concurrency: number, queries: string[], send: (query: string) => Promise<void>): Promise<{ seconds: number; latencies: number[]; errors: number }> {
  let next = 0;
  let errors = 0;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < queries.length) {
        const query = queries[next++]!;
        const sent = performance.now();
        try {
          await send(query);
          latencies.push(performance.now() - sent);
        } catch {
          errors++;
        }
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies, errors };
}

function runOf(skills: number, where: Run["path"], cache: Run["cache"], connections: number, outcome: { seconds: number; latencies: number[]; errors: number; cpu: Run["cpuMsPerRequest"] }): Run {
  const { p50, p99 } = percentiles(outcome.latencies);
  const done = outcome.latencies.length + outcome.errors;
  return { skills, path: where, cache, connections, requests: done, requestsPerSecond: done / outcome.seconds, p50, p99, errors: outcome.errors, cpuMsPerRequest: outcome.cpu };
}

/** In process: cold runs on distinct queries, then warm runs repeating queries the cold runs embedded; and where a request's time goes. */
async function inProcess(db: string, skills: number, embedder: string, queries: string[]): Promise<{ runs: Run[]; embedP50: number; routingP50: number; routingP99: number }> {
  const encoder: QueryEncoder = await createQueryEncoder({ indexEmbedder: embedder, ...batching });
  const router: Router = await createRouter({ db, queryEncoder: encoder });
  try {
    await drive(1, queries.slice(0, WARMUP), async (query) => void (await router.route(query)));
    const runs: Run[] = [];
    const embed: number[] = [];
    const routing: number[] = [];
    let next = WARMUP;
    for (const connections of CONNECTIONS) {
      const cold = queries.slice(next, (next += requests));
      const outcome = await measuredCpu(process.pid, () =>
        drive(connections, cold, async (query) => {
          const result = await router.route(query);
          if (connections === 1) {
            embed.push(result.timing_ms.embed);
            routing.push(result.timing_ms.total - result.timing_ms.embed);
          }
        }),
      );
      runs.push(runOf(skills, "in process", "cold", connections, outcome));
    }
    const warm = repeated(queries.slice(WARMUP, WARMUP + WARM_SET));
    const routeOnly = async (query: string) => void (await router.route(query));
    for (const connections of CONNECTIONS) runs.push(runOf(skills, "in process", "warm", connections, await measuredCpu(process.pid, () => drive(connections, warm, routeOnly))));
    const routingFigures = percentiles(routing);
    return { runs, embedP50: percentiles(embed).p50, routingP50: routingFigures.p50, routingP99: routingFigures.p99 };
  } finally {
    await router.close();
    await encoder.close();
  }
}

/** `requests` queries cycling through the warm set. */
function repeated(set: string[]): string[] {
  return Array.from({ length: requests }, (_, index) => set[index % set.length]!);
}

/** `router serve` as users run it (default logging and decision log), with this run's embedding settings. */
function startServe(db: string, workers = batching.workers): Promise<RouterServeChild> {
  const flags = [
    "--db",
    db,
    "--port",
    "0",
    "--reload-interval-ms",
    "0",
    "--embed-workers",
    String(workers),
    "--embed-max-batch",
    String(batching.maxBatch),
    "--embed-batch-window-ms",
    String(batching.batchWindowMs),
  ];
  return startRouterServe([BUILT_CLI], flags, { cwd: repo });
}

/** POST /route through autocannon: `connections` kept-alive connections, one query per request in the order given. */
async function hammer(url: string, connections: number, queries: string[]): Promise<{ seconds: number; latencies: number[]; errors: number }> {
  let sent = 0;
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  let last = started;
  const result = await autocannon({
    url: `${url}/route`,
    connections,
    amount: queries.length,
    timeout: 30,
    requests: [{ method: "POST", headers: { "content-type": "application/json" }, setupRequest: (request) => ({ ...request, body: JSON.stringify({ query: queries[sent++ % queries.length] }) }) }],
  }).on("response", (_client, status, _bytes, responseTime) => {
    last = performance.now();
    if (status >= 200 && status < 300) latencies.push(responseTime);
    else failed++;
  });
  // autocannon ends on its one-second tick; the last response says when the work really ended.
  return { seconds: (last - started) / 1000, latencies, errors: failed + result.errors + result.timeouts };
}

/** One server per worker count, side by side; each round sends the same fresh queries to each, so both meet the same queries and the same noise. */
async function compareWorkers(
  db: string,
  counts: number[],
  queries: string[],
): Promise<{ workers: number; requestsPerSecond: number; p50: number; p99: number; cpu: Run["cpuMsPerRequest"]; rssMb: number }[]> {
  const servers = [];
  for (const workers of counts) servers.push({ workers, ...(await startServe(db, workers)) });
  try {
    for (const server of servers) await hammer(server.url, 1, queries.slice(0, WARMUP));
    const rounds = servers.map(() => [] as Awaited<ReturnType<typeof hammer>>[]);
    const cpu = servers.map(() => ({ main: 0, workers: 0, requests: 0 }));
    for (let round = 0; round < COMPARE_ROUNDS; round++) {
      const cold = queries.slice(WARMUP + round * requests, WARMUP + (round + 1) * requests);
      for (const [index, server] of servers.entries()) {
        const outcome = await measuredCpu(server.child.pid!, () => hammer(server.url, COMPARE_CONNECTIONS, cold));
        rounds[index]!.push(outcome);
        cpu[index]!.main += outcome.cpu.main;
        cpu[index]!.workers += outcome.cpu.workers;
      }
    }
    return servers.map((server, index) => {
      const all = rounds[index]!;
      const rates = all.map((outcome) => (outcome.latencies.length + outcome.errors) / outcome.seconds).sort((a, b) => a - b);
      const { p50, p99 } = percentiles(all.flatMap((outcome) => outcome.latencies));
      return {
        workers: server.workers,
        requestsPerSecond: rates[Math.floor(rates.length / 2)]!,
        p50,
        p99,
        cpu: { main: cpu[index]!.main / COMPARE_ROUNDS, workers: cpu[index]!.workers / COMPARE_ROUNDS },
        rssMb: rssMbOf(server.child.pid!),
      };
    });
  } finally {
    await Promise.all(servers.map(stopRouterServe));
  }
}

async function overHttp(db: string, skills: number, queries: string[]): Promise<{ runs: Run[]; rssMb: number }> {
  const server = await startServe(db);
  try {
    await hammer(server.url, 1, queries.slice(0, WARMUP));
    const runs: Run[] = [];
    let next = WARMUP;
    const pid = server.child.pid!;
    for (const connections of CONNECTIONS) {
      const cold = queries.slice(next, (next += requests));
      runs.push(runOf(skills, "HTTP", "cold", connections, await measuredCpu(pid, () => hammer(server.url, connections, cold))));
    }
    const warm = repeated(queries.slice(WARMUP, WARMUP + WARM_SET));
    for (const connections of CONNECTIONS) runs.push(runOf(skills, "HTTP", "warm", connections, await measuredCpu(pid, () => hammer(server.url, connections, warm))));
    return { runs, rssMb: rssMbOf(pid) };
  } finally {
    await stopRouterServe(server);
  }
}

const started = performance.now();
buildCli(repo);
mkdirSync(CACHE, { recursive: true });
const queries = distinctQueries();
const needed = WARMUP + Math.max(CONNECTIONS.length, COMPARE_ROUNDS) * requests + 2 * LONE_QUERIES;
if (queries.length < needed) throw new Error(`the bench needs ${needed} distinct queries, the eval sets have ${queries.length}`);
const items = readCorpus(path.join(shared, "corpus"));
const indexes = [];
for (const size of sizes) {
  log(`index of ${size} skills (built once into bench/.cache)...`);
  indexes.push({ size, ...(await scaleIndex(sampleCorpus(items, size), size, CACHE, false)) });
}
const meta = openIndexForRead(indexes[0]!.db);
const embedder = readMeta(meta).embedder!;
meta.close();
const run = startRun(embedder);

log(`embedding-bound rate: ${batching.workers} worker(s), distinct queries, batch sizes ${BATCH_SIZES.join(", ")}...`);
const rates = await embeddingRates(embedder, queries);
const best = rates.reduce((a, b) => (b.textsPerSecond > a.textsPerSecond ? b : a));
log("what the batch window costs a lone query...");
const lone = await windowCost(embedder, queries.slice(queries.length - 2 * LONE_QUERIES));
const runs: Run[] = [];
const routingCost: { skills: number; embedP50: number; routingP50: number; routingP99: number }[] = [];
const serverRss: { skills: number; rssMb: number }[] = [];
for (const { size, db, build } of indexes) {
  log(`${build.skills} skills in process...`);
  const local = await inProcess(db, build.skills, embedder, queries);
  runs.push(...local.runs);
  routingCost.push({ skills: build.skills, embedP50: local.embedP50, routingP50: local.routingP50, routingP99: local.routingP99 });
  log(`${build.skills} skills over HTTP...`);
  const http = await overHttp(db, build.skills, queries);
  runs.push(...http.runs);
  serverRss.push({ skills: size, rssMb: http.rssMb });
}
const compareCounts = args["compare-workers"].split(",").map(Number);
log(`${indexes[0]!.build.skills} skills over HTTP with ${compareCounts.join(" and ")} embedding workers...`);
const byWorkers = await compareWorkers(indexes[0]!.db, compareCounts, queries);
const finished = finishRun(run, started);

const share = (rate: number) => `${Math.round((rate / best.textsPerSecond) * 100)}%`;
const text = [
  "## Throughput",
  "",
  `How close the serving path comes to the rate at which the model alone embeds queries, in one run: ${batching.workers} embedding worker${batching.workers > 1 ? "s" : ""} (\`--embed-workers\`, this machine's default), batches of at most ${batching.maxBatch}, a batch window of ${batching.batchWindowMs} ms. Queries are distinct user messages from the eval sets; *cold* runs never repeat one (every request is embedded), *warm* runs repeat ${WARM_SET} queries the cold runs answered (the index version's answer cache replies: no stage runs; the routing-only cost is in the table below). In process is \`createRouter().route()\` with that many concurrent callers; HTTP is \`router serve\` (default logging and decision log, run as the Docker image runs it: ${shippedProcess()}) loaded by autocannon with that many connections, from the same machine: load generator and server share its ${os.availableParallelism()} cores.`,
  "",
  `**Embedding-bound rate**: the offline model embedding distinct queries on ${batching.workers} worker thread${batching.workers > 1 ? "s" : ""}, no routing: ${rates.map((rate) => `batch ${rate.batch}: ${rate.textsPerSecond.toFixed(0)} (${ms(rate.cpuMsPerText)} CPU ms/text)`).join(", ")} texts/s; the best, **${best.textsPerSecond.toFixed(0)} texts/s** (batch ${best.batch}), is the ceiling the last column compares with.`,
  "",
  table(
    ["skills", "path", "cache", "connections", "requests", "req/s", "p50 ms", "p99 ms", "errors", "of embedding-bound", "CPU ms/req: main thread / other threads"],
    runs.map((row) => [
      row.skills.toLocaleString("en-US"),
      row.path,
      row.cache,
      String(row.connections),
      String(row.requests),
      row.requestsPerSecond.toFixed(0),
      ms(row.p50),
      ms(row.p99),
      String(row.errors),
      row.cache === "cold" ? share(row.requestsPerSecond) : "-",
      `${ms(row.cpuMsPerRequest.main)} / ${ms(row.cpuMsPerRequest.workers)}`,
    ]),
  ),
  "",
  "**Where a request's time goes.** In process, 1 caller, cold: the query's embedding (worker thread) and the routing once it is embedded (retrieval, signals, scoring, decision, explanation; main thread). Over HTTP, the CPU each cold request costs the server at 8 connections, on its main thread (HTTP, validation, routing, logging, answering) and on its other threads (the embedding workers, and V8's garbage collector and libuv's helpers), from /proc: unlike wall time, it hardly changes with what else the machine runs. The main thread cannot serve more than 1000 / (its ms) requests a second however many workers embed, and the cores cannot serve more than cores × 1000 / (both ms), load generator not counted.",
  "",
  table(
    ["skills", "embed p50 ms", "routing p50 / p99 ms", "HTTP CPU ms/req: main thread / other threads", "ceiling req/s: main thread / all cores", "server RSS MB"],
    routingCost.map((row, index) => {
      const { main, workers } = runs.find((run) => run.skills === row.skills && run.path === "HTTP" && run.cache === "cold" && run.connections === 8)!.cpuMsPerRequest;
      return [
        row.skills.toLocaleString("en-US"),
        ms(row.embedP50),
        `${ms(row.routingP50)} / ${ms(row.routingP99)}`,
        `${ms(main)} / ${ms(workers)}`,
        `${(1000 / main).toFixed(0)} / ${((os.availableParallelism() * 1000) / (main + workers)).toFixed(0)}`,
        serverRss[index]!.rssMb.toFixed(0),
      ];
    }),
  ),
  "",
  `**How many embedding workers** (\`--embed-workers\`): \`router serve\` over the ${indexes[0]!.build.skills.toLocaleString("en-US")}-skill index once per worker count, side by side, HTTP, cold, ${COMPARE_CONNECTIONS} connections, ${COMPARE_ROUNDS} rounds of ${requests} queries sent to each server in turn (median req/s; latency over all rounds). Every worker holds its own model.`,
  "",
  table(
    ["workers", "req/s", "p50 ms", "p99 ms", "CPU ms/req: main thread / other threads", "server RSS MB"],
    byWorkers.map((row) => [String(row.workers), row.requestsPerSecond.toFixed(0), ms(row.p50), ms(row.p99), `${ms(row.cpu.main)} / ${ms(row.cpu.workers)}`, row.rssMb.toFixed(0)]),
  ),
  "",
  `**What the batch window costs a lone query**: p50 ${ms(lone.withWindow)} ms with the ${batching.batchWindowMs} ms window, ${ms(lone.withoutWindow)} ms without (${LONE_QUERIES} queries each, alternating, nothing else in flight): a query that finds no batch in flight is sent at once.`,
  "",
  runLine(finished, `npx tsx bench/throughput.ts${process.argv.slice(2).length > 0 ? ` ${process.argv.slice(2).join(" ")}` : ""}`),
].join("\n");
process.stdout.write(`${text}\n`);
if (!args["no-write"]) replaceSections(RESULTS, [{ heading: "## Throughput", text }]);
