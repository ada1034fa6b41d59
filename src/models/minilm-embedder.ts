import type { Embedder } from "./embedder.js";
import type { ModelDtype } from "./model-catalogue.js";
import { loadTransformers, localModelOptions } from "./transformers-runtime.js";

// sentence-transformers trains and runs all-MiniLM-L6-v2 with 256 word pieces; more only dilutes the mean.
const DEFAULT_MAX_TOKENS = 256;
const BATCH = 32;
/** Bump when a change here (tokenising, truncation, pooling) alters the vectors: indexes then re-embed. */
export const MINILM_CODE_VERSION = "1";

export interface MiniLmOptions {
  id: string;
  /** The model folder (`<models dir>/Xenova/all-MiniLM-L6-v2`), holding config, tokenizer and onnx/. */
  folder: string;
  dtype: ModelDtype;
  threads: number;
  /** Word pieces read of each text (default 256, all-MiniLM-L6-v2's; the multilingual model was trained with 128). */
  maxTokens?: number;
}

/**
 * A BERT-style sentence embedder through transformers.js (AutoTokenizer + AutoModel on onnxruntime-node):
 * token embeddings, mean-pooled over the attention mask, then L2-normalised — sentence-transformers' recipe.
 */
export async function createMiniLmEmbedder(options: MiniLmOptions): Promise<Embedder> {
  const { AutoTokenizer, AutoModel, mean_pooling } = await loadTransformers();
  const tokenizer = await AutoTokenizer.from_pretrained(options.folder, { local_files_only: true });
  const model = await AutoModel.from_pretrained(options.folder, localModelOptions(options.dtype, options.threads));
  const dimension = Number((model.config as { hidden_size?: number }).hidden_size);
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  return {
    id: options.id,
    dimension,
    version: MINILM_CODE_VERSION,
    async embed(texts) {
      // Sorting by length keeps padding, and so wasted work, small within a batch.
      const order = texts.map((_, index) => index).sort((a, b) => texts[a]!.length - texts[b]!.length);
      const vectors: Float32Array[] = new Array(texts.length);
      for (let start = 0; start < order.length; start += BATCH) {
        const batch = order.slice(start, start + BATCH);
        const inputs = tokenizer(
          batch.map((index) => texts[index]!),
          { padding: true, truncation: true, max_length: maxTokens },
        );
        const { last_hidden_state } = await model(inputs);
        const pooled = mean_pooling(last_hidden_state, inputs.attention_mask).normalize(2, -1);
        const data = pooled.data as Float32Array;
        batch.forEach((index, row) => (vectors[index] = data.slice(row * dimension, (row + 1) * dimension)));
      }
      return vectors;
    },
    async close() {
      await model.dispose();
    },
  };
}
