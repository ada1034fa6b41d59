// Fits the default routing parameters (src/route/default-params.json) on the TRAINING halves of the
// labelled sets in ../shared/eval, with the offline embedder. Benchmarks report on the other halves only.
// Usage: npx tsx bench/fit-defaults.ts
import { writeFileSync } from "node:fs";
import path from "node:path";
import { planEmbedder } from "../src/models/create-embedder.js";
import type { FitSample } from "../src/fit/fit-params.js";
import { DEFAULT_FIT_SETS, fitDefaults, trainingSamples } from "./default-fit.js";

const EVAL_DIR = path.resolve("../shared/eval");
// The accuracy bench's eval-set index cache (keyed by file content), so both scripts share one build per set.
const CACHE = path.resolve("bench/.cache/eval");

const samples = new Map<string, FitSample[]>();
for (const name of DEFAULT_FIT_SETS) samples.set(name, await trainingSamples(path.join(EVAL_DIR, `${name}.json`), CACHE, (message) => console.error(message)));
const fit = fitDefaults(samples, planEmbedder().id);
writeFileSync("src/route/default-params.json", `${JSON.stringify(fit.params, null, 2)}\n`);
console.log(JSON.stringify(fit.training));
