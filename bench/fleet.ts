// Learning at fleet scale (issue 42): three `router serve` replicas on read-only copies of one index, feedback kept in
// one PostgreSQL, and a builder `router index` that folds it in. Measures what is acknowledged against what is stored
// (with a replica killed mid-burst), the builder's fold of 10,000 rows, /route's p50 with and without a feedback burst
// in the same run, the store stopped, and a flood of made-up client names into one skill with the shipped caps.
//
//   npx tsx bench/fleet.ts            (a few minutes; prints a markdown section for bench/RESULTS.md)
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { postgresFeedbackStore } from "../src/feedback/postgres-feedback-store.js";
import { runIndex } from "../src/indexer/run-index.js";
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from "../test/helpers/postgres-server.js";
import { startRouterServe, type RouterServeChild } from "./router-serve-child.js";
import { finishRun, startRun } from "./run-info.js";

const REPLICAS = 3;
const CONNECTIONS = 16;
const BURST = 3_000;
const FOLDED = 10_000;
const ROUTE_ROUNDS = 3;
const ROUTE_REQUESTS = 300;
const ROUTE_CONNECTIONS = 4;
// Feedback sent during each "with" round of the A/B.
const AB_FEEDBACK = 600;
// tsx runs the sources, so a test run elsewhere that rebuilds dist/ cannot pull the files from under a replica.
const ENTRY = ["--import", "tsx", "src/cli/main.ts"];
// Unprivileged, so the replicas' index copies are read-only to them even when the bench runs as root.
const NOBODY = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

const SKILL_TOPICS: Record<string, string> = {
  "api-design-review": "review the REST endpoints of our orders API",
  "docker-image-optimize": "make the docker image for the billing service smaller",
  "git-commit-messages": "write the commit message for my staged changes in the payments repo",
  "incident-postmortem": "write up the postmortem for the outage of the checkout service",
  "k8s-debug": "the pods of the search deployment keep restarting",
  "pdf-extract": "pull the tables out of the supplier invoice PDF",
  "python-testing": "add pytest tests for the tax calculation module",
  "regex-helper": "a regex that matches the ticket ids in our commit messages",
  "release-notes": "draft the release notes for version of the mobile app",
  "sql-query-review": "the report query on the orders table is slow",
};
const SKILLS = Object.keys(SKILL_TOPICS);
// Requests that say something none of the skills' own texts say: confirmed three times, then a fourth is asked.
const LEARNED = {
  skill: "release-notes",
  confirmed: ["QBR deck for Acme due friday", "put together our QBR numbers", "need the QBR ready for the execs"],
  asked: "can you start on the QBR for the board",
};

interface Outcome {
  status: number;
  code?: string;
  retryAfter?: string | null;
}

async function main(): Promise<void> {
  if (POSTGRES_MISSING) throw new Error(POSTGRES_MISSING);
  const started = performance.now();
  const run = startRun("use-lite-512 (offline default)");
  const dir = mkdtempSync(path.join(tmpdir(), "fleet-bench-"));
  chmodSync(dir, 0o755);
  const pgServer = await startPostgres();
  const replicas: RouterServeChild[] = [];
  try {
    const builderDb = path.join(dir, "builder", "router.db");
    mkdirSync(path.dirname(builderDb));
    await runIndex({ paths: ["data/skills"], db: builderDb });
    const copies = Array.from({ length: REPLICAS }, (_, n) => publish(builderDb, path.join(dir, `replica-${n}`)));
    const env = { ...process.env, ROUTER_FEEDBACK_URL: pgServer.url, ROUTER_FEEDBACK_SKILL_HOURLY: "1000000", ROUTER_FEEDBACK_SENDER_HOURLY: "10000000", HOME: dir };
    const startReplica = (n: number) =>
      startRouterServe(ENTRY, ["--db", copies[n]!, "--port", "0", "--no-explorer", "--decision-log", "off", "--reload-interval-ms", "500", "--embed-workers", "1"], { env, ...NOBODY });
    for (let n = 0; n < REPLICAS; n++) replicas.push(await startReplica(n));
    const lines: string[] = [];
    const say = (line: string) => {
      lines.push(line);
      process.stderr.write(`${line}\n`);
    };

    // 1. A burst across the replicas: acknowledged against stored.
    const first = await burst(
      replicas.map((replica) => replica.url),
      requests("burst", BURST),
    );
    say(`burst: ${first.acked.length} of ${BURST} acknowledged in ${first.seconds.toFixed(1)} s (${(first.acked.length / first.seconds).toFixed(0)} rows/s); ${tally(first.outcomes)}`);
    say(`  stored: ${(await storedOf(pgServer, first.acked)).missing} acknowledged rows missing from PostgreSQL`);

    // 2. The same with one replica killed (SIGKILL) a third of the way in.
    const killed = replicas[REPLICAS - 1]!;
    const second = await burst(
      replicas.map((replica) => replica.url),
      requests("killed", BURST),
      (sent) => {
        if (sent === Math.floor(BURST / 3)) killed.child.kill("SIGKILL");
      },
    );
    say(`burst with a replica killed (kill -9) after ${Math.floor(BURST / 3)} requests: ${second.acked.length} of ${BURST} acknowledged; ${tally(second.outcomes)}`);
    say(`  stored: ${(await storedOf(pgServer, second.acked)).missing} acknowledged rows missing from PostgreSQL`);
    replicas[REPLICAS - 1] = await startReplica(REPLICAS - 1);

    // 3. /route p50 alone and with a feedback burst against the same replicas, alternating, in this run: feedback on
    // answers the replica just gave (with their route_id, as the hooks and MCP send it), and on requests it never routed.
    for (const [shapeAt, shape] of (["on answers just given (route_id)", "on requests never routed"] as const).entries()) {
      const alone: number[] = [];
      const withBurst: number[] = [];
      for (let round = 0; round < ROUTE_ROUNDS; round++) {
        const items = requests(`ab-${shape.length}-${round}`, AB_FEEDBACK);
        if (shape.startsWith("on answers")) await withRouteIds(replicas, items);
        // Every measured route is a new request (the answer cache would otherwise answer it).
        alone.push(...(await routeTimes(replicas, `alone-${shapeAt}-${round}`)).times);
        const background = burst(
          replicas.map((replica) => replica.url),
          items,
        );
        withBurst.push(...(await routeTimes(replicas, `with-${shapeAt}-${round}`)).times);
        await background;
      }
      const p50Alone = quantile(alone, 0.5);
      const p50With = quantile(withBurst, 0.5);
      say(
        `/route p50 alone ${p50Alone.toFixed(1)} ms, with a burst of feedback ${shape} ${p50With.toFixed(1)} ms (ratio ${(p50With / p50Alone).toFixed(2)}); p99 ${quantile(alone, 0.99).toFixed(1)} vs ${quantile(withBurst, 0.99).toFixed(1)} ms; ${ROUTE_ROUNDS} alternating rounds of ${ROUTE_REQUESTS} routes at ${ROUTE_CONNECTIONS} connections`,
      );
    }

    // 4. Rows up to FOLDED, the learned requests last (a skill folds in its newest requests from use); the builder
    // folds them in, the replicas load the new version.
    const inStore = await countRows(pgServer);
    const topUp = await burst(
      replicas.map((replica) => replica.url),
      requests("top-up", FOLDED - inStore - LEARNED.confirmed.length),
    );
    for (const query of LEARNED.confirmed) await post(replicas[0]!.url, "/feedback", { query, skill: LEARNED.skill });
    const before = (await post(replicas[0]!.url, "/route", { query: LEARNED.asked })) as { skills: { name: string }[]; decision: string };
    const rows = await countRows(pgServer);
    say(`store: ${rows} rows before the builder run (${topUp.acked.length} added through the replicas)`);
    // The builder's run as the CLI makes it (runIndex with the configured store), timed from the call to its return.
    const build = async () => {
      const store = postgresFeedbackStore(pgServer.url);
      const started = performance.now();
      const summary = await runIndex({ paths: ["data/skills"], db: builderDb, feedbackStore: store }).finally(() => store.close());
      const seconds = (performance.now() - started) / 1000;
      say(
        `builder: \`router index\` folded ${summary.folded.rows} rows (revision ${summary.folded.revision}) in ${seconds.toFixed(1)} s: ${summary.feedback.examples} examples, ${summary.feedback.negatives} negatives, ${summary.feedback.skills} skills changed, decision refit ${summary.refit ? "done" : "not due"}, ${summary.calibration ? "index calibrated again" : "no calibration"}; index v${summary.indexVersion}`,
      );
      return summary;
    };
    await build();
    // The next scheduled run, with a few hundred more rows: the refit waits until the labels have grown by a quarter.
    await burst(
      replicas.map((replica) => replica.url),
      requests("next-run", 300),
    );
    const summary = await build();
    // The same run once more as a process, the CronJob's shape, for its start-up cost (the sources through tsx).
    const asProcess = timed(() =>
      spawnSync(process.execPath, [...ENTRY, "index", "data/skills", "--db", builderDb, "-q"], { env: { ...process.env, ROUTER_FEEDBACK_URL: pgServer.url }, encoding: "utf8" }),
    );
    if (asProcess.value.status !== 0) throw new Error(`router index failed: ${asProcess.value.stderr}`);
    say(`builder as a process with nothing new to fold: ${asProcess.seconds.toFixed(1)} s from start to exit`);
    const publishedAt = performance.now();
    for (const copy of copies) publishFile(builderDb, copy);
    const versions = await Promise.all(replicas.map((replica) => waitForVersion(replica.url, summary.indexVersion)));
    say(`replicas: all ${versions.length} serve v${summary.indexVersion} ${((performance.now() - publishedAt) / 1000).toFixed(1)} s after the new file was in place`);
    const after = (await Promise.all(replicas.map((replica) => post(replica.url, "/route", { query: LEARNED.asked })))) as { skills: { name: string }[]; decision: string; selected: string[] }[];
    say(
      `learned: "${LEARNED.asked}" ranked ${before.skills[0]!.name} first before (decision ${before.decision}); after, on each replica: ${after.map((answer) => `${answer.skills[0]!.name} (decision ${answer.decision})`).join(", ")}`,
    );

    // 5. The store stopped: routing goes on, feedback is refused with a code and a Retry-After.
    pgServer.stop();
    const down = await Promise.all([
      burst(
        replicas.map((replica) => replica.url),
        requests("down", 90),
      ),
      routeTimes(replicas, "store-down"),
    ]);
    pgServer.start();
    say(`store stopped: /route ${down[1].errors} errors of ${down[1].times.length + down[1].errors}; /feedback ${tally(down[0].outcomes)}`);

    // 6. 1,000 made-up clients into one skill, with the shipped caps, on a store of its own.
    const floodDb = await freshDatabase(pgServer, "flood");
    const guarded = await startRouterServe(ENTRY, ["--db", copies[0]!, "--port", "0", "--no-explorer", "--decision-log", "off"], {
      env: { ...process.env, ROUTER_FEEDBACK_URL: floodDb, HOME: dir },
      ...NOBODY,
    });
    try {
      const flood = await burst(
        [guarded.url],
        Array.from({ length: 1_000 }, (_, n) => ({ body: { query: `explain git rebase to me, variant ${n}`, skill: "git-commit-messages" }, client: `made-up-${n}` })),
      );
      say(`flood: 1,000 rows from 1,000 made-up client names into one skill: ${flood.acked.length} stored; ${tally(flood.outcomes)}`);
    } finally {
      guarded.child.kill("SIGTERM");
    }

    const finished = finishRun(run, started);
    process.stdout.write(
      [
        "## Learning at fleet scale",
        "",
        `${finished.date.slice(0, 10)}, commit ${finished.commit}, ${finished.cpu} (${finished.cores} cores, shared), node ${finished.node}, PostgreSQL 15 (Debian) on the same machine with its durable defaults (fsync on), load ${finished.loadStart.toFixed(1)} -> ${finished.loadEnd!.toFixed(1)}; \`npx tsx bench/fleet.ts\` (${finished.seconds!.toFixed(0)} s).`,
        `${REPLICAS} \`router serve\` replicas (as an unprivileged user, on read-only copies of one index of data/skills, one embedding worker each), \`ROUTER_FEEDBACK_URL\` pointing at one PostgreSQL; ${CONNECTIONS} connections spread over the replicas.`,
        "",
        ...lines.map((line) => (line.startsWith("  ") ? `  ${line.trim()}` : `- ${line}`)),
        "",
      ].join("\n"),
    );
  } finally {
    for (const replica of replicas) replica.child.kill("SIGKILL");
    pgServer.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A read-only copy of the index in its own read-only folder. */
function publish(source: string, folder: string): string {
  mkdirSync(folder);
  const file = path.join(folder, "router.db");
  publishFile(source, file);
  chmodSync(folder, 0o555);
  return file;
}

/** A new index version lands as a new file renamed over the old one, as a volume or image update would. */
function publishFile(source: string, file: string): void {
  const next = `${file}.next`;
  copyFileSync(source, next);
  chmodSync(next, 0o444);
  renameSync(next, file);
}

// One request in this many says no skill should have answered: the labels a refit needs beside the examples.
const NONE_EVERY = 20;

function requests(tag: string, count: number): { body: { query: string; skill: string | null; route_id?: string }; client: string }[] {
  return Array.from({ length: Math.max(0, count) }, (_, n) => {
    const skill = SKILLS[n % SKILLS.length]!;
    const none = n % NONE_EVERY === NONE_EVERY - 1;
    return { body: { query: none ? `what should I cook tonight with leeks, evening ${tag} ${n}` : `${SKILL_TOPICS[skill]} (${tag} ${n})`, skill: none ? null : skill }, client: `agent-${n % 50}` };
  });
}

/** Sends every request over `CONNECTIONS` loops, round-robin over the URLs; `onSend` sees how many were sent. */
async function burst(urls: string[], items: { body: unknown; client: string }[], onSend?: (sent: number) => void): Promise<{ acked: string[]; outcomes: Outcome[]; seconds: number }> {
  const acked: string[] = [];
  const outcomes: Outcome[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < items.length) {
        const at = next++;
        onSend?.(at);
        const item = items[at]!;
        try {
          const answer = await fetch(`${urls[at % urls.length]}/feedback`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-router-client": item.client },
            body: JSON.stringify(item.body),
            signal: AbortSignal.timeout(15_000),
          });
          const body = (await answer.json()) as { error?: { code: string } };
          outcomes.push({ status: answer.status, ...(body.error ? { code: body.error.code } : {}), retryAfter: answer.headers.get("retry-after") });
          if (answer.status === 201) acked.push((item.body as { query: string }).query);
        } catch {
          outcomes.push({ status: 0, code: "connection failed" });
        }
      }
    }),
  );
  return { acked, outcomes, seconds: (performance.now() - started) / 1000 };
}

function tally(outcomes: Outcome[]): string {
  const counts = new Map<string, { count: number; retryAfter: number[] }>();
  for (const outcome of outcomes) {
    const key = outcome.status === 201 ? "201" : `${outcome.status || "no answer"} ${outcome.code ?? ""}`.trim();
    const entry = counts.get(key) ?? { count: 0, retryAfter: [] };
    entry.count++;
    if (outcome.retryAfter) entry.retryAfter.push(Number(outcome.retryAfter));
    counts.set(key, entry);
  }
  return [...counts]
    .map(([key, { count, retryAfter }]) => {
      const low = Math.min(...retryAfter);
      const high = Math.max(...retryAfter);
      return `${count} × ${key}${retryAfter.length === 0 ? "" : ` (Retry-After ${low === high ? low : `${low}-${high}`} s)`}`;
    })
    .join(", ");
}

/** Routes each item's request once, so its feedback can name the answer by route_id (the replica's recent answers hold it). */
async function withRouteIds(replicas: RouterServeChild[], items: { body: { query: string; skill: string | null; route_id?: string } }[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: ROUTE_CONNECTIONS }, async () => {
      while (next < items.length) {
        const at = next++;
        const answer = (await post(replicas[at % replicas.length]!.url, "/route", { query: items[at]!.body.query })) as { route_id: string };
        items[at]!.body.route_id = answer.route_id;
      }
    }),
  );
}

async function routeTimes(replicas: RouterServeChild[], seed: string): Promise<{ times: number[]; errors: number }> {
  const times: number[] = [];
  let errors = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: ROUTE_CONNECTIONS }, async () => {
      while (next < ROUTE_REQUESTS) {
        const at = next++;
        const skill = SKILLS[at % SKILLS.length]!;
        const started = performance.now();
        try {
          const answer = await fetch(`${replicas[at % replicas.length]!.url}/route`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            // A new request each time: the answer cache would otherwise answer it.
            body: JSON.stringify({ query: `${SKILL_TOPICS[skill]}, question ${seed}-${at}` }),
          });
          await answer.arrayBuffer();
          if (answer.status === 200) times.push(performance.now() - started);
          else errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  return { times, errors };
}

async function post(url: string, pathname: string, body: unknown): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await fetch(`${url}${pathname}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      return await answer.json();
    } catch (error) {
      // A keep-alive connection the server closed as it was reused is asked again.
      if (attempt === 2) throw error;
    }
  }
}

async function waitForVersion(url: string, version: number): Promise<number> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    // A keep-alive connection the server closed as it was reused is asked again.
    const ready = (await fetch(`${url}/readyz`)
      .then((answer) => answer.json())
      .catch(() => ({ index: null }))) as { index: { version: number } | null };
    if (ready.index?.version === version) return version;
    if (performance.now() > deadline) throw new Error(`${url} still serves v${ready.index?.version} after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function storedOf(server: TestPostgres, acked: string[]): Promise<{ missing: number }> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    const stored = new Set((await client.query<{ query: string }>("SELECT query FROM router_feedback")).rows.map((row) => row.query));
    return { missing: acked.filter((query) => !stored.has(query)).length };
  } finally {
    await client.end();
  }
}

async function countRows(server: TestPostgres): Promise<number> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    return (await client.query<{ count: number }>("SELECT count(*)::int AS count FROM router_feedback")).rows[0]!.count;
  } finally {
    await client.end();
  }
}

async function freshDatabase(server: TestPostgres, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return server.url.replace(/\/router$/, `/${name}`);
}

function timed<T>(work: () => T): { value: T; seconds: number } {
  const started = performance.now();
  const value = work();
  return { value, seconds: (performance.now() - started) / 1000 };
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

await main();
