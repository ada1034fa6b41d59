import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { percentiles } from "../src/eval/metrics.js";
import { BUILT_CLI, rssMbOf, startRouterServe, stopRouterServe } from "./router-serve-child.js";

export interface HttpRun {
  connections: number;
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Client-side latency of 2xx responses, from autocannon's per-response times (ms). */
  latencyMs: { p50: number; p95: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

export interface HttpPlan {
  /** Requests sent first and not measured: the model's first calls are slower. */
  warmup: number;
  runs: { connections: number; requests: number }[];
}

export interface HttpFigures {
  skills: number;
  runs: HttpRun[];
  serverRssMb: number;
}

const REPO = fileURLToPath(new URL("..", import.meta.url));

/**
 * POST /route on loopback against `router serve` (the built CLI, run as the Docker image runs it) in a child
 * process: a warm-up, then one run per concurrency, each on queries never sent before (the server's query cache
 * would otherwise answer).
 */
export async function measureHttp(db: string, skills: number, queries: string[], plan: HttpPlan): Promise<HttpFigures> {
  const needed = plan.warmup + plan.runs.reduce((sum, run) => sum + run.requests, 0);
  if (queries.length < needed) throw new Error(`the HTTP bench needs ${needed} distinct queries, got ${queries.length}`);
  const server = await startRouterServe([BUILT_CLI], ["--db", db, "--port", "0", "--reload-interval-ms", "0"], { cwd: REPO });
  try {
    let next = 0;
    const take = (count: number) => queries.slice(next, (next += count));
    if (plan.warmup > 0) await load(server.url, 1, take(plan.warmup));
    const runs: HttpRun[] = [];
    for (const run of plan.runs) runs.push(await load(server.url, run.connections, take(run.requests)));
    return { skills, runs, serverRssMb: rssMbOf(server.child.pid!) };
  } finally {
    await stopRouterServe(server);
  }
}

async function load(url: string, connections: number, queries: string[]): Promise<HttpRun> {
  let sent = 0;
  const times: number[] = [];
  const started = performance.now();
  let lastResponse = started;
  const instance = autocannon({
    url: `${url}/route`,
    connections,
    amount: queries.length,
    timeout: 30,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ query: queries[sent++ % queries.length] }) }),
      },
    ],
  }).on("response", (_client, statusCode, _bytes, responseTime) => {
    lastResponse = performance.now();
    if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
  });
  const result = await instance;
  // autocannon finishes on its one-second tick; the last response says when the work really ended.
  const seconds = (lastResponse - started) / 1000;
  return {
    connections,
    requests: result.requests.total,
    seconds,
    requestsPerSecond: result.requests.total / seconds,
    latencyMs: percentiles(times),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}
