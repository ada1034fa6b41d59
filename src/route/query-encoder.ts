import { LRUCache } from "lru-cache";
import { createEmbedder } from "../models/create-embedder.js";

/** Embeds user queries for routing (cached: agents resend the same messages). */
export interface QueryEncoder {
  readonly id: string;
  readonly dimension: number;
  embedQuery(text: string): Promise<Float32Array>;
  close(): Promise<void>;
}

const CACHE_ENTRIES = 10_000;

/** A query encoder for an index built with `embedderId` (null: an index without vectors yet). */
export async function createQueryEncoderFor(_embedderId: string | null): Promise<QueryEncoder> {
  const embedder = await createEmbedder();
  const cache = new LRUCache<string, Float32Array>({ max: CACHE_ENTRIES });
  return {
    id: embedder.id,
    dimension: embedder.dimension,
    async embedQuery(text) {
      let vector = cache.get(text);
      if (!vector) {
        [vector] = await embedder.embed([text]);
        cache.set(text, vector!);
      }
      return vector!;
    },
    close: () => embedder.close(),
  };
}
