// A damaged index is refused, said and rebuilt: 20 KB of random bytes written at 10 offsets of an index (a copy
// each). For each copy, damaged before `router serve` starts: every endpoint that reads the index is asked, then
// `router doctor` and `router index` run on it, and the same server must come back ready once the file is good
// again. Then the same damage written while a server serves the file (SQLite reads most pages only when a request
// needs them). Also how long `router serve` takes to be ready on a large index, the start-up check included, and how
// long /healthz waits meanwhile. Writes the "Damaged index" section of bench/RESULTS.md.
// Usage: npx tsx bench/damaged-index.ts [--skills <folder>] [--large <index file>]
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { closeSync, copyFileSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { planEmbedder } from "../src/models/create-embedder.js";
import { checkIndexIntegrity } from "../src/store/index-integrity.js";
import { runLine } from "./format-figures.js";
import { freePort } from "./free-port.js";
import { replaceSections } from "./results-file.js";
import { finishRun, startRun } from "./run-info.js";

const HEADING = "## Damaged index";
const CLI = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));
const EXAMPLE_SKILLS = fileURLToPath(new URL("../data/skills", import.meta.url));
const DAMAGE_BYTES = 20_000;
const OFFSETS = 10;
// The refusals a server that cannot serve its index answers by design; any other answer >= 500 is a failure.
const REFUSALS = new Set(["INDEX_CORRUPT", "NOT_READY"]);
const QUERIES = [
  "my pod keeps restarting",
  "extract the tables from this pdf",
  "write release notes for v2.1",
  "review this sql query for performance",
  "why does my regex not match",
  "will it rain in Lisbon today?",
  "write a postmortem for yesterday's outage",
  "how do I make my docker image smaller",
  "write a commit message for these changes",
  "review my REST API design",
  "help me test this python function",
  "tell me a joke",
];

const { values: flags } = parseArgs({ options: { skills: { type: "string" }, large: { type: "string" } } });
const skills = path.resolve(flags.skills ?? EXAMPLE_SKILLS);

interface Answers {
  /** Answers >= 500 that are not a documented refusal (503 INDEX_CORRUPT, NOT_READY). */
  failures: number;
  /** Every answer by its error code, or its status when it has none. */
  codes: Map<string, number>;
}

interface Outcome {
  offset: number;
  /** The tables and indexes whose pages the damage covers (read from the good copy). */
  hit: string;
  readyz: string;
  before: Answers;
  doctor: string;
  doctorSays: boolean;
  recovered: boolean;
  backReady: boolean;
  after: Answers;
  /** The same damage written while a server serves the file. */
  whileServed: Answers;
  readyzWhileServed: string;
}

/** Bytes from a seeded xorshift generator: the same damage on every run. */
function randomBytes(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

function damage(file: string, offset: number, seed: number): void {
  const fd = openSync(file, "r+");
  try {
    writeSync(fd, randomBytes(DAMAGE_BYTES, seed), 0, DAMAGE_BYTES, offset);
  } finally {
    closeSync(fd);
  }
}

/** Which b-trees own the pages from `offset` for DAMAGE_BYTES, as SQLite's dbstat table says of the good file. */
function pagesHit(good: string, offset: number): string {
  const db = new Database(good, { readonly: true });
  try {
    const pageSize = db.pragma("page_size", { simple: true }) as number;
    const first = Math.floor(offset / pageSize) + 1;
    const last = Math.floor((offset + DAMAGE_BYTES - 1) / pageSize) + 1;
    const names = db.prepare("SELECT DISTINCT name FROM dbstat WHERE pageno BETWEEN ? AND ? ORDER BY name").pluck().all(first, last) as string[];
    const owned = db.prepare("SELECT count(*) FROM dbstat WHERE pageno BETWEEN ? AND ?").pluck().get(first, last) as number;
    const free = last - first + 1 - owned;
    return [...names.filter((name) => !name.startsWith("sqlite_autoindex_")), free > 0 ? `${free} free` : undefined].filter(Boolean).join(", ");
  } finally {
    db.close();
  }
}

function runCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", CLI, ...args], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

interface Served {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function startRouter(db: string): Promise<Served> {
  const port = await freePort();
  // The explorer's script comes from `npm run build`: this bench runs on the sources alone.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", CLI, "serve", "--db", db, "--host", "127.0.0.1", "--port", String(port), "--log-level", "fatal", "--reload-interval-ms", "200", "--no-explorer"],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    async stop() {
      child.kill("SIGTERM");
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

interface Readiness {
  ready: boolean;
  error: { code: string; message: string } | null;
}

/** /readyz once `until` holds (by default: the load has finished, ready or not), or after `limitMs`. */
async function readiness(server: Served, until: (body: Readiness) => boolean = (body) => body.ready || body.error !== null, limitMs = 60_000): Promise<Readiness> {
  const started = performance.now();
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`router serve exited with ${server.child.exitCode}`);
    const body = await fetch(`${server.url}/readyz`).then(
      async (response) => (await response.json()) as Readiness,
      () => undefined,
    );
    if (body && until(body)) return body;
    if (performance.now() - started > limitMs) return body ?? { ready: false, error: null };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const readyzText = (body: Readiness): string => (body.ready ? "ready" : (body.error?.code ?? "not ready"));

/** Every endpoint that reads the index, as a client would call them; answers tallied by code. */
async function askEverything(url: string, names: string[]): Promise<Answers> {
  const answers: Answers = { failures: 0, codes: new Map() };
  const ask = async (pathname: string, body?: unknown) => {
    const response = await fetch(`${url}${pathname}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const payload = (await response.json()) as { error?: { code: string } };
    const code = payload.error?.code ?? String(response.status);
    answers.codes.set(code, (answers.codes.get(code) ?? 0) + 1);
    if (response.status >= 500 && !REFUSALS.has(code)) answers.failures++;
  };
  for (const query of QUERIES) {
    await ask("/route", { query });
    await ask("/route", { query, include: ["body"], k: 5 });
  }
  await ask("/skills");
  for (const name of names) await ask(`/skills/${encodeURIComponent(name)}`);
  await ask("/feedback", { query: QUERIES[0], skill: names[0] });
  return answers;
}

const codesText = (answers: Answers): string => [...answers.codes].map(([code, count]) => `${code} ${count}`).join(", ");

function skillNames(db: string): string[] {
  const index = new Database(db, { readonly: true });
  try {
    return index.prepare("SELECT name FROM skills ORDER BY name").pluck().all() as string[];
  } finally {
    index.close();
  }
}

/** Damaged before the server starts: refused, said by doctor, rebuilt by `router index`, served again. */
async function damagedAtStart(good: string, db: string, offset: number, seed: number, names: string[]): Promise<Omit<Outcome, "whileServed" | "readyzWhileServed">> {
  copyFileSync(good, db);
  damage(db, offset, seed);
  const server = await startRouter(db);
  try {
    const readyz = readyzText(await readiness(server));
    const before = await askEverything(server.url, names);
    const doctor = await runCli(["doctor", "--db", db, "--json"]);
    const report = JSON.parse(doctor.stdout) as { status: string; index: { error?: { code: string } } };
    const indexed = await runCli(["index", skills, "--db", db, "-q"]);
    const healed = JSON.parse((await runCli(["doctor", "--db", db, "--json"])).stdout) as { index: { error?: { code: string }; skills?: number } };
    // The same server, not restarted: its poll sees the rebuilt file.
    const back = await readiness(server, (body) => body.ready, 30_000);
    return {
      offset,
      hit: pagesHit(good, offset),
      readyz,
      before,
      doctor: report.index.error?.code ?? report.status,
      doctorSays: report.status === "problems" && report.index.error?.code === "INDEX_CORRUPT" && doctor.status !== 0,
      recovered: indexed.status === 0 && /moved aside to .*\.corrupt-/.test(indexed.stdout) && healed.index.error === undefined && healed.index.skills === names.length,
      backReady: back.ready,
      after: back.ready ? await askEverything(server.url, names) : { failures: 0, codes: new Map() },
    };
  } finally {
    await server.stop();
  }
}

/** Damaged while a server serves the file: what it answers, and what /readyz says after. */
async function damagedWhileServed(good: string, db: string, offset: number, seed: number, names: string[]): Promise<Pick<Outcome, "whileServed" | "readyzWhileServed">> {
  copyFileSync(good, db);
  const server = await startRouter(db);
  try {
    await readiness(server, (body) => body.ready);
    damage(db, offset, seed);
    const whileServed = await askEverything(server.url, names);
    return { whileServed, readyzWhileServed: readyzText(await readiness(server)) };
  } finally {
    await server.stop();
  }
}

/** `router serve` on a large index: seconds until ready, and the longest /healthz took meanwhile (polled every 50 ms). */
async function startUp(file: string): Promise<{ readySeconds: number; healthzMaxMs: number }> {
  const server = await startRouter(file);
  const started = performance.now();
  let healthzMaxMs = 0;
  try {
    for (;;) {
      const asked = performance.now();
      const ok = await fetch(`${server.url}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) healthzMaxMs = Math.max(healthzMaxMs, performance.now() - asked);
      const state = ok ? await readiness(server, () => true) : undefined;
      if (state?.error) throw new Error(`router serve on ${file} is not ready: ${state.error.message}`);
      if (state?.ready) return { readySeconds: (performance.now() - started) / 1000, healthzMaxMs };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await server.stop();
  }
}

/** The start-up check alone on the main thread: the first run, then the median of 4 more. */
function timeCheck(file: string): { bytes: number; first: number; median: number } {
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    const db = new Database(file, { readonly: true });
    const started = performance.now();
    checkIndexIntegrity(db, file);
    times.push(performance.now() - started);
    db.close();
  }
  return { bytes: statSync(file).size, first: times[0]!, median: [...times.slice(1)].sort((a, b) => a - b)[2]! };
}

const started = performance.now();
const run = startRun(planEmbedder().id);
const work = mkdtempSync(path.join(tmpdir(), "damaged-index-"));
try {
  const good = path.join(work, "good.db");
  const built = await runCli(["index", skills, "--db", good, "-q"]);
  if (built.status !== 0) throw new Error(`router index failed: ${built.stderr}`);
  // The WAL is folded into the file, so that every copy is whole.
  const folding = new Database(good);
  folding.pragma("wal_checkpoint(TRUNCATE)");
  folding.close();
  const size = statSync(good).size;
  const names = skillNames(good);
  const outcomes: Outcome[] = [];
  for (let n = 0; n < OFFSETS; n++) {
    // Spread over the whole file, the first at its start (the header page).
    const offset = Math.round((n * (size - DAMAGE_BYTES)) / (OFFSETS - 1));
    const db = path.join(mkdtempSync(path.join(work, `offset-${n}-`)), "router.db");
    const atStart = await damagedAtStart(good, db, offset, n + 1, names);
    const whileServed = await damagedWhileServed(good, path.join(mkdtempSync(path.join(work, `served-${n}-`)), "router.db"), offset, n + 1, names);
    outcomes.push({ ...atStart, ...whileServed });
    console.error(`offset ${offset}: ${atStart.readyz}, ${codesText(atStart.before)}; doctor ${atStart.doctor}; rebuilt ${atStart.recovered}; while served: ${codesText(whileServed.whileServed)}`);
  }
  const large = flags.large ? { check: timeCheck(flags.large), startUp: await startUp(flags.large) } : undefined;
  const count = (test: (outcome: Outcome) => boolean) => `${outcomes.filter(test).length}/${outcomes.length}`;
  const failures = (pick: (outcome: Outcome) => Answers) => outcomes.reduce((sum, outcome) => sum + pick(outcome).failures, 0);
  const asked = (pick: (outcome: Outcome) => Answers) => outcomes.reduce((sum, outcome) => sum + [...pick(outcome).codes.values()].reduce((a, b) => a + b, 0), 0);
  const text = [
    HEADING,
    "",
    `An index of ${names.length} skills (${skills === EXAMPLE_SKILLS ? "data/skills" : skills}, ${size.toLocaleString("en-US")} bytes). For each of ${OFFSETS} copies, ${DAMAGE_BYTES.toLocaleString("en-US")} random bytes written at one offset (spread over the file, the first on the header page), then \`router serve\` on it asked ${QUERIES.length * 2} \`POST /route\`, \`GET /skills\`, \`GET /skills/{name}\` of every skill and one \`POST /feedback\`; \`router doctor\`; \`router index\` on it; the same server asked everything again once its poll saw the rebuilt file. Then, on a fresh copy, the same damage written while a server serves it, and everything asked. A failure is an answer >= 500 other than the documented refusal (503 \`INDEX_CORRUPT\`, or \`NOT_READY\`).`,
    "",
    "| offset | pages of | /readyz | answers (damaged before start) | doctor | rebuilt by `router index` | server ready again | failures after | answers (damaged while served) | /readyz after |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...outcomes
      .map((outcome) =>
        [
          outcome.offset.toLocaleString("en-US"),
          outcome.hit,
          outcome.readyz,
          codesText(outcome.before),
          outcome.doctor,
          outcome.recovered ? "yes" : "no",
          outcome.backReady ? "yes" : "no",
          outcome.after.failures,
          codesText(outcome.whileServed),
          outcome.readyzWhileServed,
        ].join(" | "),
      )
      .map((row) => `| ${row} |`),
    "",
    `Failures: ${failures((outcome) => outcome.before) + failures((outcome) => outcome.after) + failures((outcome) => outcome.whileServed)} of ${asked((outcome) => outcome.before) + asked((outcome) => outcome.after) + asked((outcome) => outcome.whileServed)} answers; \`router doctor\` says INDEX_CORRUPT and exits 1: ${count((outcome) => outcome.doctorSays)}; \`router index\` moves the file aside and rebuilds it: ${count((outcome) => outcome.recovered)}; the server ready again without a restart: ${count((outcome) => outcome.backReady)} (targets: 0, 10/10, 10/10).`,
    ...(large
      ? [
          "",
          `On a large index (${(large.check.bytes / 1e6).toFixed(0)} MB): the start-up check (SQLite's \`quick_check\`, in a worker thread) takes ${large.check.first.toFixed(0)} ms the first time, ${large.check.median.toFixed(0)} ms the median of 4 more; \`router serve\` is ready in ${large.startUp.readySeconds.toFixed(1)} s, and /healthz answered within ${large.startUp.healthzMaxMs.toFixed(0)} ms meanwhile.`,
        ]
      : []),
    "",
    runLine(finishRun(run, started), `npx tsx bench/damaged-index.ts${flags.large ? " --large <index file>" : ""}`),
    "",
  ].join("\n");
  replaceSections(fileURLToPath(new URL("./RESULTS.md", import.meta.url)), [{ heading: HEADING, text }]);
  console.log(text);
} finally {
  rmSync(work, { recursive: true, force: true });
}
