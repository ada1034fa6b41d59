import type { Reranker } from "./embedder.js";
import type { ModelDtype } from "./model-catalogue.js";
import { loadTransformers, localModelOptions } from "./transformers-runtime.js";

// The ms-marco cross-encoders were trained on query-passage pairs of up to 512 word pieces.
const MAX_TOKENS = 512;

export interface CrossEncoderOptions {
  id: string;
  folder: string;
  dtype: ModelDtype;
  threads: number;
}

/**
 * A cross-encoder reranker through transformers.js: each (query, passage) pair goes through
 * AutoModelForSequenceClassification, and the single relevance logit becomes a probability by a sigmoid.
 * (The text-classification pipeline would apply a softmax over that one logit, which is always 1.)
 */
export async function createCrossEncoderReranker(options: CrossEncoderOptions): Promise<Reranker> {
  const { AutoTokenizer, AutoModelForSequenceClassification } = await loadTransformers();
  const tokenizer = await AutoTokenizer.from_pretrained(options.folder, { local_files_only: true });
  const model = await AutoModelForSequenceClassification.from_pretrained(options.folder, localModelOptions(options.dtype, options.threads));
  const labels = Object.keys((model.config as { id2label?: Record<string, string> }).id2label ?? { 0: "relevance" }).length;
  if (labels !== 1) {
    await model.dispose();
    throw new Error(`${options.folder} classifies into ${labels} labels; a reranker needs one relevance logit`);
  }
  return {
    id: options.id,
    async score(query, passages) {
      if (passages.length === 0) return [];
      const inputs = tokenizer(new Array<string>(passages.length).fill(query), { text_pair: passages, padding: true, truncation: true, max_length: MAX_TOKENS });
      const { logits } = await model(inputs);
      return Array.from(logits.data as Float32Array, sigmoid);
    },
    async close() {
      await model.dispose();
    },
  };
}

function sigmoid(logit: number): number {
  return 1 / (1 + Math.exp(-logit));
}
