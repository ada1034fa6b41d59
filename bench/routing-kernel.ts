// Does the WebAssembly dot product earn its place? Cold routes (answer cache bypassed) over trigger-dev's curated index
// (heuristic track), the same requests interleaved, with the SIMD kernel and with a plain JavaScript loop over the same
// memory: the share of a route's time the kernel saves. Usage: npx tsx bench/routing-kernel.ts [--rounds 3]
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { percentiles } from "../src/eval/metrics.js";
import { planEmbedder } from "../src/models/create-embedder.js";
import { VectorSlots } from "../src/models/vector-slots.js";
import { createRouter } from "../src/route/router.js";
import type { Case } from "./trigger-dev-eval.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const cases = (JSON.parse(readFileSync(path.resolve(repo, "..", "shared", "eval", "trigger-dev", "cases.json"), "utf8")) as { cases: Case[] }).cases;
const { values } = parseArgs({ options: { rounds: { type: "string", default: "3" } } });
const db = path.join(repo, "bench", ".cache", "trigger-dev", `trigger-dev-curated-heuristic-${planEmbedder().id}.db`);

// The plain loop reads the slots' own WebAssembly memory, as the kernel does: only the arithmetic differs.
const simd = VectorSlots.prototype.similarity;
function plainSimilarity(this: VectorSlots, slot: number): number {
  const slots = this as unknown as { floats: Float32Array; stride: number };
  const { floats, stride } = slots;
  let sum = 0;
  for (let i = 0; i < stride; i++) sum += floats[i]! * floats[slot * stride + i]!;
  return sum;
}

const router = await createRouter({ db });
const times = { simd: { total: [] as number[], routing: [] as number[] }, plain: { total: [] as number[], routing: [] as number[] } };
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [at, item] of cases.entries()) {
      for (const kind of (at % 2 === round % 2 ? ["simd", "plain"] : ["plain", "simd"]) as (keyof typeof times)[]) {
        VectorSlots.prototype.similarity = kind === "simd" ? simd : plainSimilarity;
        // Another text each time: the answer cache would hide the work.
        const { timing_ms: timing } = await router.route(`${item.query} (${kind} ${round})`);
        times[kind].total.push(timing.total);
        times[kind].routing.push(timing.retrieve + timing.score);
      }
    }
  }
} finally {
  VectorSlots.prototype.similarity = simd;
  await router.close();
}
const row = (kind: keyof typeof times) => {
  const [total, routing] = [percentiles(times[kind].total), percentiles(times[kind].routing)];
  return `| ${kind === "simd" ? "WebAssembly SIMD kernel" : "plain JavaScript loop"} | ${times[kind].total.length} | ${total.p50.toFixed(2)} | ${routing.p50.toFixed(3)} | ${routing.p99.toFixed(3)} |`;
};
console.log("| dot product | routes | route p50 ms | retrieval + scoring p50 ms | p99 ms |\n|---|---|---|---|---|");
console.log(row("simd"));
console.log(row("plain"));
const saved = 1 - percentiles(times.simd.total).p50 / percentiles(times.plain.total).p50;
console.log(
  `\nThe kernel saves ${(100 * saved).toFixed(1)}% of a cold route's p50 (retrieval and scoring alone: ${(100 * (1 - percentiles(times.simd.routing).p50 / percentiles(times.plain.routing).p50)).toFixed(1)}%)`,
);
