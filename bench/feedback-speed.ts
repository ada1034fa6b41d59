// Learning from use, its costs: 10,000 pieces of feedback folded into trigger-dev's curated index (heuristic track),
// how long that takes, /route's latency with them against none (in process, the same requests interleaved), the
// longest event-loop stall of a server while it applies feedback and reloads, and what kill -9 loses.
// Usage: npx tsx bench/feedback-speed.ts [--rows 10000] [--rounds 3] [--kills 10]   (run after bench/trigger-dev.ts)
import { spawn } from "node:child_process";
import { copyFileSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { applyFeedback } from "../src/feedback/apply-feedback.js";
import { buildRoutingData } from "../src/indexer/build-routing-data.js";
import { createRouter } from "../src/route/router.js";
import { startServer } from "../src/server/serve.js";
import { openIndexForRead, openIndexForWrite } from "../src/store/database.js";
import { countFeedback, saveFeedback } from "../src/store/feedback-rows.js";
import { readMeta } from "../src/store/index-meta.js";
import { planEmbedder } from "../src/models/create-embedder.js";
import { percentiles } from "../src/eval/metrics.js";
import { untilServeReady } from "../test/helpers/wait.js";
import type { Case } from "./trigger-dev-eval.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const cli = path.join(repo, "dist", "cli", "main.js");
const cases = (JSON.parse(readFileSync(path.resolve(repo, "..", "shared", "eval", "trigger-dev", "cases.json"), "utf8")) as { cases: Case[] }).cases;
const { values } = parseArgs({ options: { rows: { type: "string", default: "10000" }, rounds: { type: "string", default: "3" }, kills: { type: "string", default: "10" } } });
const rows = Number(values.rows);
const source = path.join(repo, "bench", ".cache", "trigger-dev", `trigger-dev-curated-heuristic-${planEmbedder().id}.db`);
const plain = copy(source, "feedback-speed-none.db");
const learned = copy(source, "feedback-speed-rows.db");

// Feedback rows: manifest queries of the index's skills confirmed for a skill, with the vectors the index holds for
// them (the bench measures folding and routing, not embedding).
const writer = openIndexForWrite(learned);
const dimension = readMeta(writer).dimension!;
const texts = writer
  .prepare(
    "SELECT s.name, t.text, t.skill_id AS skillId, (SELECT count(*) FROM texts u WHERE u.skill_id = t.skill_id AND u.id < t.id) AS position FROM texts t JOIN skills s ON s.id = t.skill_id WHERE t.kind = 'query' ORDER BY t.id",
  )
  .all() as { name: string; text: string; skillId: string; position: number }[];
const vectorOf = writer.prepare("SELECT vectors FROM skill_vectors WHERE skill_id = ?").pluck();
const embedder = readMeta(writer).embedder ?? null;
const started = performance.now();
for (let at = 0, saved = 0; saved < rows && at < texts.length * 3; at++) {
  const text = texts[(at * 7919) % texts.length]!;
  const blob = vectorOf.get(text.skillId) as Buffer;
  const vector = new Float32Array(blob.buffer.slice(blob.byteOffset + text.position * dimension * 4, blob.byteOffset + (text.position + 1) * dimension * 4));
  try {
    saveFeedback(writer, { query: `${text.text} (${at})`, skill: text.name, wrong: null, routeId: null, client: `client-${at % 50}`, role: "example", note: "", embedder, vector });
    saved++;
  } catch {
    // A full skill or client: the caps hold, the next text goes to another.
  }
}
const storedMs = performance.now() - started;
const stored = countFeedback(writer);
writer.exec("BEGIN IMMEDIATE");
const applyStarted = performance.now();
const applied = await applyFeedback(writer, async () => {
  throw new Error("every row has its vector");
});
const foldedMs = performance.now() - applyStarted;
buildRoutingData(writer);
writer.exec("COMMIT");
const appliedMs = performance.now() - applyStarted;
writer.close();
console.log(
  `## Feedback at scale\n\n${stored} rows stored in ${(storedMs / 1000).toFixed(1)} s; folded into ${applied.skills} skills' texts in ${(foldedMs / 1000).toFixed(1)} s, with the routing data rebuilt ${(appliedMs / 1000).toFixed(1)} s in all (${applied.examples} examples kept, at most 100 per skill)\n`,
);

// /route on the two indexes, interleaved, the same requests: total time, embedding included.
const routers = { none: await createRouter({ db: plain }), feedback: await createRouter({ db: learned }) };
const times: Record<keyof typeof routers, number[]> = { none: [], feedback: [] };
for (let round = 0; round < Number(values.rounds); round++) {
  for (const item of cases) {
    for (const name of (round % 2 === 0 ? ["none", "feedback"] : ["feedback", "none"]) as (keyof typeof routers)[]) {
      // A suffix per round keeps the answer cache out of it.
      const result = await routers[name].route(`${item.query} ${round}`);
      times[name].push(result.timing_ms.total);
    }
  }
}
for (const router of Object.values(routers)) await router.close();
const [none, feedback] = [percentiles(times.none), percentiles(times.feedback)];
console.log("| index | routes | p50 ms | p99 ms |\n|---|---|---|---|");
console.log(`| no feedback | ${times.none.length} | ${none.p50.toFixed(2)} | ${none.p99.toFixed(2)} |`);
console.log(`| ${stored} feedback rows | ${times.feedback.length} | ${feedback.p50.toFixed(2)} | ${feedback.p99.toFixed(2)} |`);
console.log(`\np50 ratio ${(feedback.p50 / none.p50).toFixed(3)}, p99 ratio ${(feedback.p99 / none.p99).toFixed(3)}\n`);

// A server applying feedback while it answers: the longest its event loop stalled.
const serving = copy(source, "feedback-speed-serve.db");
const server = await startServer({ db: serving, host: "127.0.0.1", port: 0, reloadIntervalMs: 200, cli });
await server.ready;
const version = server.slot.router!.status().indexVersion;
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
let routed = 0;
const post = (route: string, body: unknown) => fetch(`${server.url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const traffic = (async () => {
  while (server.slot.router!.status().indexVersion === version) {
    await post("/route", { query: cases[routed % cases.length]!.query });
    routed++;
  }
})();
const feedbackStarted = performance.now();
for (const item of cases.slice(0, 200)) await post("/feedback", { query: item.query, skill: item.expected });
await traffic;
const reloadedMs = performance.now() - feedbackStarted;
delay.disable();
await server.close();
console.log(
  `A server given 200 pieces of feedback while it routes: served the new version ${(reloadedMs / 1000).toFixed(1)} s after the first; ${routed} routes meanwhile; longest event-loop stall ${(delay.max / 1e6).toFixed(1)} ms (p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms)\n`,
);

// kill -9 right after a 201: every acknowledged piece must be in the file.
const killed = copy(source, "feedback-speed-kill.db");
let acknowledged = 0;
for (let round = 0; round < Number(values.kills); round++) {
  const child = spawn(process.execPath, [cli, "serve", "--db", killed, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  const { url } = await untilServeReady(child);
  const response = await fetch(`${url}/feedback`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: `kill round ${round}: ${cases[round]!.query}`, skill: cases[round]!.source }),
  });
  if (response.status === 201) acknowledged++;
  child.kill("SIGKILL");
  await new Promise((resolve) => child.on("exit", resolve));
}
const index = openIndexForRead(killed);
const kept = countFeedback(index);
index.close();
console.log(`kill -9 right after each of ${values.kills} answers: ${acknowledged} acknowledged, ${kept} in the index file, ${acknowledged - kept} lost\n`);
for (const file of [plain, learned, serving, killed]) for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });

function copy(from: string, name: string): string {
  const to = path.join(path.dirname(from), name);
  for (const suffix of ["", "-wal", "-shm"]) {
    rmSync(`${to}${suffix}`, { force: true });
    try {
      copyFileSync(`${from}${suffix}`, `${to}${suffix}`);
    } catch {
      // A checkpointed index has no -wal or -shm file.
    }
  }
  return to;
}
