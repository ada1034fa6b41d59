// The routing benchmark: `npm run bench` (all parts) or `npm run bench -- --only trigger,accuracy,scale,http [--fresh]`.
// Writes bench/results.json, the "Unseen skills", "Routing accuracy", "Scale", "Over HTTP" and "Targets" sections of
// bench/RESULTS.md, and bench/accuracy-latency.svg. Reads ../shared/eval and ../shared/corpus.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEFAULT_FIT_SETS } from "./default-fit.js";
import { runBench, type BenchPart } from "./run-bench.js";
import { buildCli } from "./router-serve-child.js";
import { distractorSets, everydaySets } from "./trigger-dev-eval.js";

const PARTS: BenchPart[] = ["trigger", "accuracy", "scale", "http"];
const repo = fileURLToPath(new URL("..", import.meta.url));
const shared = path.resolve(repo, "..", "shared");
const { values } = parseArgs({ options: { only: { type: "string" }, fresh: { type: "boolean", default: false } } });
const parts = values.only ? (values.only.split(",").map((part) => part.trim()) as BenchPart[]) : PARTS;
const unknown = parts.filter((part) => !PARTS.includes(part));
if (unknown.length > 0) throw new Error(`unknown part(s) ${unknown.join(", ")}: choose from ${PARTS.join(", ")}`);

// The HTTP part runs the built CLI.
if (parts.includes("http")) buildCli(repo);
const started = performance.now();
await runBench({
  parts,
  trigger: {
    evalDir: path.join(shared, "eval", "trigger-dev"),
    distractorSets: distractorSets(path.join(shared, "corpus", "skills")),
    everydaySets: everydaySets(path.join(shared, "eval")),
  },
  fitSets: DEFAULT_FIT_SETS.map((name) => ({ name, file: path.join(shared, "eval", `${name}.json`) })),
  datasets: [
    { name: "metatool", file: path.join(shared, "eval", "metatool.json"), withoutExamples: path.join(shared, "eval", "metatool-noexamples.json") },
    { name: "bfcl", file: path.join(shared, "eval", "bfcl.json") },
    { name: "clinc150", file: path.join(shared, "eval", "clinc150.json") },
  ],
  corpus: path.join(shared, "corpus"),
  sizes: [100, 1000, 10000, 100000],
  probeQueries: 300,
  probeWarmup: 20,
  httpSizes: [1000, 10000, 100000],
  http: {
    warmup: 50,
    runs: [
      { connections: 1, requests: 500 },
      { connections: 4, requests: 1000 },
      { connections: 16, requests: 1000 },
    ],
  },
  cacheDir: path.join(repo, "bench", ".cache"),
  resultsJson: path.join(repo, "bench", "results.json"),
  resultsMd: path.join(repo, "bench", "RESULTS.md"),
  chartSvg: path.join(repo, "bench", "accuracy-latency.svg"),
  fresh: values.fresh,
  log: (message) => process.stderr.write(`${message}\n`),
});
process.stderr.write(`bench done in ${((performance.now() - started) / 1000).toFixed(0)} s: bench/RESULTS.md, bench/accuracy-latency.svg\n`);
