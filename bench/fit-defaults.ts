// Fits the default fusion parameters (src/route/default-fusion.json) on the TRAINING halves of the
// labelled sets in ../shared/eval, with the offline embedder. Benchmarks report on the other halves only.
// Usage: npx tsx bench/fit-defaults.ts
import { writeFileSync } from "node:fs";
import path from "node:path";
import { indexEvalSet } from "../src/eval/eval-index.js";
import { readEvalSet } from "../src/eval/eval-set.js";
import { splitCases } from "../src/eval/split.js";
import { collectSamples, fitFusion, type FitSample } from "../src/route/fit/fit-fusion.js";
import { DEFAULT_FUSION } from "../src/route/fusion-params.js";
import { createRouter } from "../src/route/router.js";

const SETS = ["metatool", "metatool-noexamples", "clinc150", "bfcl"];
const EVAL_DIR = path.resolve("../shared/eval");
// The accuracy bench's eval-set index cache (keyed by file content), so both scripts share one build per set.
const CACHE = path.resolve("bench/.cache/eval");

const samples: FitSample[] = [];
let embedder: string | null = null;
for (const name of SETS) {
  const file = path.join(EVAL_DIR, `${name}.json`);
  const { db } = await indexEvalSet(file, CACHE);
  const { train } = splitCases(readEvalSet(file).cases);
  const router = await createRouter({ db, fusion: DEFAULT_FUSION });
  embedder = router.status().embedder;
  const started = performance.now();
  samples.push(...(await collectSamples(router, train)));
  console.error(`${name}: ${train.length} training cases in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  await router.close();
}
const fit = fitFusion(samples, {
  origin: `defaults fitted by bench/fit-defaults.ts on the training halves of ${SETS.join(", ")}`,
  embedder,
  fallback: DEFAULT_FUSION,
  indexSpecific: false,
});
writeFileSync("src/route/default-fusion.json", `${JSON.stringify(fit.params, null, 2)}\n`);
console.log(JSON.stringify(fit.training));
