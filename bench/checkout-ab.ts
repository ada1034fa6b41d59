// Is /route slower than at another commit? Indexes one eval set with each of two checkouts' code (each its own index
// file: the schemas may differ) and routes its requests through both routers in one process, interleaved request by
// request, each text new to the answer cache: the median retrieval + scoring time of each, without the embedding.
// Usage: git worktree add /tmp/old <commit> && ln -s "$PWD/node_modules" /tmp/old/node_modules && ln -s "$PWD"/models/* /tmp/old/models/
//        npx tsx bench/checkout-ab.ts /tmp/old [--eval ../shared/eval/metatool.json] [--rounds 3]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { percentiles } from "../src/eval/metrics.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { eval: { type: "string", default: path.resolve(repo, "..", "shared", "eval", "metatool.json") }, rounds: { type: "string", default: "3" } },
});
const [otherCheckout] = positionals;
if (!otherCheckout) throw new Error("Usage: npx tsx bench/checkout-ab.ts <other checkout> [--eval <eval set>] [--rounds <n>]");
const cases = (JSON.parse(readFileSync(values.eval, "utf8")) as { cases: { query: string }[] }).cases;
const folder = mkdtempSync(path.join(tmpdir(), "checkout-ab-"));

interface AnyRouter {
  route(query: string): Promise<{ timing_ms: { retrieve: number; score: number } }>;
  close(): Promise<void>;
}

/** A router over the eval set's skills, built and run by the code of `checkout`. */
async function routerOf(checkout: string, name: string): Promise<AnyRouter> {
  const db = path.join(folder, `${name}.db`);
  const { runIndex } = await import(path.join(path.resolve(checkout), "src", "indexer", "run-index.ts"));
  await runIndex({ paths: [values.eval], db });
  const { createRouter } = await import(path.join(path.resolve(checkout), "src", "route", "router.ts"));
  return createRouter({ db });
}

const routers: Record<"other" | "this", AnyRouter> = { other: await routerOf(otherCheckout, "other"), this: await routerOf(repo, "this") };
const times: Record<"other" | "this", number[]> = { other: [], this: [] };
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [at, item] of cases.entries()) {
      // Each side goes first on every other request, so a slow moment of the machine falls on both alike.
      for (const side of (at + round) % 2 === 0 ? (["other", "this"] as const) : (["this", "other"] as const)) {
        const { timing_ms: timing } = await routers[side].route(`${item.query} (${round})`);
        times[side].push(timing.retrieve + timing.score);
      }
    }
  }
} finally {
  for (const router of Object.values(routers)) await router.close();
  rmSync(folder, { recursive: true, force: true });
}
const [other, mine] = [percentiles(times.other), percentiles(times.this)];
console.log(`| checkout | routes | retrieval + scoring p50 ms | p95 ms |\n|---|---|---|---|`);
console.log(`| ${otherCheckout} | ${times.other.length} | ${other.p50.toFixed(3)} | ${other.p95.toFixed(3)} |`);
console.log(`| this one | ${times.this.length} | ${mine.p50.toFixed(3)} | ${mine.p95.toFixed(3)} |`);
console.log(`\np50 ratio this / other: ${(mine.p50 / other.p50).toFixed(3)}`);
