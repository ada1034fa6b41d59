// Load: concurrent POST /route on loopback against an index of ~1,000 real skills, through the real `router serve`
// (API key on, decision log on), driven by autocannon. Each run starts a fresh server, warms it up, then loads it.
// Usage: npx tsx bench/load.ts [--duration 60] [--connections 8] [--runs 3] [--soak 240] [--prepare] [--no-write]
// --soak adds one longer run, outside the medians, whose RSS samples show whether memory levels off.
// Writes the "## Load" section of bench/RESULTS.md (other sections are left as they are).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { readEvalSet } from "../src/eval/eval-set.js";
import { runIndex } from "../src/indexer/run-index.js";
import { MAX_QUERY_CHARS } from "../src/contract/limits.js";
import { indexRecipe } from "./index-recipe.js";
import { replaceSections } from "./results-file.js";
import { refreshRoutingData } from "./refresh-routing-data.js";
import { shippedProcess } from "./shipped-serve-process.js";
import { BUILT_CLI, buildCli, rssMbOf, startRouterServe, stopRouterServe, type RouterServeChild } from "./router-serve-child.js";

const CORPUS = path.resolve("../shared/corpus/skills");
const EVAL_SETS = ["clinc150.json", "metatool.json", "bfcl.json"].map((file) => path.resolve("../shared/eval", file));
const CACHE = path.resolve("bench/.cache");
const RESULTS = path.resolve("bench/RESULTS.md");
const API_KEY = "load-bench-key-0123456789";
const WARMUP_SECONDS = 5;
const RSS_SAMPLE_MS = 5_000;

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "60" },
    connections: { type: "string", default: "8" },
    runs: { type: "string", default: "3" },
    soak: { type: "string", default: "0" },
    prepare: { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false },
  },
});

/** Every third skill folder of the corpus in folder order: a fixed sample (~1,000 skills once duplicates and invalid ones drop) across every source repository. */
function selectSkills(): string[] {
  const entries = (JSON.parse(readFileSync(path.join(CORPUS, "index.json"), "utf8")) as { dir: string }[]).map((entry) => entry.dir).sort();
  return entries.filter((_, index) => index % 3 === 0).map((dir) => path.join(CORPUS, dir));
}

/** The index is built once and reused while the sample and its recipe are the same (bench/.cache is gitignored). */
async function ensureIndex(): Promise<string> {
  const folders = selectSkills();
  const stamp = createHash("sha256").update(indexRecipe()).update(folders.join("\n")).digest("hex");
  const db = path.join(CACHE, "load.db");
  const stampFile = `${db}.stamp`;
  if (existsSync(db) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) {
    refreshRoutingData(db);
    return db;
  }
  mkdirSync(CACHE, { recursive: true });
  process.stderr.write(`indexing ${folders.length} skill folders into ${db} (once; later runs reuse it)...\n`);
  const summary = await runIndex({ paths: folders, db, expansion: { expander: "heuristic" } });
  process.stderr.write(`indexed ${summary.skills} skills (${summary.invalid.length} invalid) in ${(summary.durationMs / 1000).toFixed(0)} s\n`);
  writeFileSync(stampFile, stamp);
  return db;
}

/** Real user messages from the eval sets that the API accepts, distinct, in a fixed shuffled order: most requests miss the query cache. */
function loadQueries(): string[] {
  const queries = new Set<string>();
  for (const file of EVAL_SETS) for (const item of readEvalSet(file).cases) queries.add(item.query);
  const list = [...queries].filter((query) => query.length <= MAX_QUERY_CHARS);
  let seed = 42;
  for (let i = list.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

/** `router serve` as users run it (the built CLI, the Docker image's node flags and environment), with an API key. */
function startServer(db: string): Promise<RouterServeChild> {
  return startRouterServe([BUILT_CLI], ["--db", db, "--port", "0"], { env: { ...process.env, ROUTER_API_KEY: API_KEY } });
}

/** autocannon's result, and the status of every answer that was not a 2xx (the run must have none). */
async function hammer(url: string, connections: number, seconds: number, queries: string[], offset: number): Promise<Awaited<ReturnType<typeof autocannon>> & { statuses: number[] }> {
  let sent = offset;
  const statuses: number[] = [];
  const instance = autocannon({
    url: `${url}/route`,
    connections,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${API_KEY}` },
        setupRequest: (request) => ({ ...request, body: JSON.stringify({ query: queries[sent++ % queries.length] }) }),
      },
    ],
  }).on("response", (_client, status) => {
    if (status < 200 || status >= 300) statuses.push(status);
  });
  return { ...(await instance), statuses };
}

interface LoadRun {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  statuses: number[];
  rssStart: number;
  rssEnd: number;
  rssMax: number;
  /** RSS every RSS_SAMPLE_MS during the measured run. */
  rssSamples: number[];
  loadStart: number;
  loadEnd: number;
  exitCode: number | null;
}

async function loadOnce(db: string, queries: string[], connections: number, seconds: number): Promise<LoadRun & { embedder: string; skills: number }> {
  const server = await startServer(db);
  // The warm-up takes its queries from the end of the list, so the measured run starts on uncached ones.
  await hammer(server.url, connections, WARMUP_SECONDS, queries, Math.floor(queries.length / 2));
  const pid = server.child.pid!;
  const rssStart = rssMbOf(pid);
  const loadStart = os.loadavg()[0]!;
  const rssSamples: number[] = [];
  const sampler = setInterval(() => rssSamples.push(rssMbOf(pid)), RSS_SAMPLE_MS);
  const result = await hammer(server.url, connections, seconds, queries, 0);
  clearInterval(sampler);
  const rssEnd = rssMbOf(pid);
  const loadEnd = os.loadavg()[0]!;
  const exitCode = await stopRouterServe(server);
  return {
    embedder: server.embedder,
    skills: server.skills,
    requests: result.requests.total,
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statuses: result.statuses,
    rssStart,
    rssEnd,
    rssMax: Math.max(rssStart, rssEnd, ...rssSamples),
    rssSamples,
    loadStart,
    loadEnd,
    exitCode,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function section(
  runs: LoadRun[],
  soak: LoadRun | undefined,
  context: { skills: number; embedder: string; connections: number; seconds: number; soakSeconds: number; queries: number; command: string },
): string {
  const row = (label: string, run: LoadRun) =>
    `| ${label} | ${run.requests} | ${run.rps.toFixed(0)} | ${run.p50.toFixed(0)} | ${run.p99.toFixed(0)} | ${run.errors + run.non2xx} | ${run.rssStart.toFixed(0)} | ${run.rssEnd.toFixed(0)} | ${run.rssMax.toFixed(0)} | ${run.loadStart.toFixed(1)} / ${run.loadEnd.toFixed(1)} |`;
  const med = (pick: (run: LoadRun) => number) => median(runs.map(pick));
  const medianRun: LoadRun = {
    requests: med((run) => run.requests),
    rps: med((run) => run.rps),
    p50: med((run) => run.p50),
    p99: med((run) => run.p99),
    errors: med((run) => run.errors),
    non2xx: med((run) => run.non2xx),
    statuses: [],
    rssStart: med((run) => run.rssStart),
    rssEnd: med((run) => run.rssEnd),
    rssMax: med((run) => run.rssMax),
    rssSamples: [],
    loadStart: med((run) => run.loadStart),
    loadEnd: med((run) => run.loadEnd),
    exitCode: 0,
  };
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  return [
    "## Load",
    "",
    `${context.seconds} s of POST /route per run, ${context.connections} concurrent connections (autocannon) on loopback, against \`router serve\` in its own`,
    `process with an API key and the decision log on (stdout piped), run as the Docker image runs it (${shippedProcess()}), over an index of ${context.skills} real skills from the corpus (every third folder).`,
    `Queries: ${context.queries} distinct user messages from the eval sets in a fixed shuffled order, so most miss the query cache. Each run`,
    `starts a fresh server and warms it for ${WARMUP_SECONDS} s first. Latency is autocannon's, client side, in ms. Errors count connection errors,`,
    "timeouts and non-2xx answers. RSS is the server process (the model worker thread included), in MB, at the start and end of the",
    "measured run and the highest 5-second sample. Load is the machine's 1-minute load average at the start / end (2 shared cores).",
    "",
    "| run | requests | req/s | p50 | p99 | errors | RSS start | RSS end | RSS max | load |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...runs.map((run, index) => row(String(index + 1), run)),
    row("**median**", medianRun),
    ...(soak ? [row(`soak, ${context.soakSeconds} s`, soak)] : []),
    "",
    ...(soak
      ? [
          `RSS of the soak run every ${RSS_SAMPLE_MS / 1000} s (MB): ${soak.rssSamples.map((mb) => mb.toFixed(0)).join(", ")}. The query cache holds at most 10,000 vectors: RSS may climb while it fills, and must stop climbing once it is full.`,
          "",
        ]
      : []),
    `Every server drained and exited ${runs.every((run) => run.exitCode === 0) ? "0" : "with an error"} on SIGTERM.`,
    "",
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${cpu}, Node ${process.version}, embedder \`${context.embedder}\`, commit \`${commit}\`.`,
    `Reproduce: \`${context.command}\` (builds dist/ first with \`npm run build\`; the index is cached in bench/.cache).`,
    "",
  ].join("\n");
}

const db = await ensureIndex();
if (!args.prepare) {
  buildCli(process.cwd());
  const queries = loadQueries();
  const connections = Number(args.connections);
  const seconds = Number(args.duration);
  const runs: (LoadRun & { embedder: string; skills: number })[] = [];
  for (let run = 1; run <= Number(args.runs); run++) {
    process.stderr.write(`run ${run}/${args.runs}: ${seconds} s, ${connections} connections...\n`);
    runs.push(await loadOnce(db, queries, connections, seconds));
    const last = runs.at(-1)!;
    process.stderr.write(
      `  ${last.rps.toFixed(0)} req/s, p50 ${last.p50} ms, p99 ${last.p99} ms, errors ${last.errors + last.non2xx} (statuses: ${last.statuses.join(", ") || "none"}), RSS ${last.rssStart.toFixed(0)} -> ${last.rssEnd.toFixed(0)} MB, load ${last.loadStart.toFixed(1)}\n`,
    );
  }
  const soakSeconds = Number(args.soak);
  let soak: LoadRun | undefined;
  if (soakSeconds > 0) {
    process.stderr.write(`soak: ${soakSeconds} s, ${connections} connections...\n`);
    soak = await loadOnce(db, queries, connections, soakSeconds);
    process.stderr.write(`  ${soak.rps.toFixed(0)} req/s, errors ${soak.errors + soak.non2xx}, RSS ${soak.rssSamples.map((mb) => mb.toFixed(0)).join(" ")} MB\n`);
  }
  const command = `npx tsx bench/load.ts --duration ${seconds} --connections ${connections} --runs ${args.runs}${soakSeconds > 0 ? ` --soak ${soakSeconds}` : ""}`;
  const text = section(runs, soak, { skills: runs[0]!.skills, embedder: runs[0]!.embedder, connections, seconds, soakSeconds, queries: queries.length, command });
  process.stdout.write(text);
  if (!args["no-write"]) replaceSections(RESULTS, [{ heading: "## Load", text }]);
  if ([...runs, ...(soak ? [soak] : [])].some((run) => run.errors + run.non2xx > 0)) process.exitCode = 1;
}
