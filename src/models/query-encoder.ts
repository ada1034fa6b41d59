/**
 * The query path's encoder: embeds user messages for routing, in milliseconds, without blocking the server.
 *
 *   const encoder = await createQueryEncoder({ indexEmbedder: readMeta(db).embedder ?? null });
 *   encoder.id, encoder.dimension          // the embedder in use; equals the index's when one is given
 *   await encoder.embedQuery("why does my pod keep restarting")   // Float32Array, unit length
 *   await encoder.embedMany(["first", "second"])                  // one vector per text, in order
 *   await encoder.close()                                          // stops the worker thread
 *
 * - Inference runs in a worker thread, so health checks and other requests are answered while it embeds.
 * - An LRU cache keeps recent query vectors (agents resend the same messages); every call returns a fresh
 *   copy, so callers may modify it.
 * - Concurrent calls are batched: while the worker is busy, new texts wait and go in together.
 * - `indexEmbedder` picks the embedder that built the index (EMBEDDER_MISMATCH when it is not available);
 *   without it the choice follows `auto` (MiniLM when its files are in models/, else the offline default).
 * - `queryEncoderOver(embedder, cacheSize)` adds the same cache and batching to an in-process embedder.
 * - Errors carry codes: MODEL_NOT_FOUND, MODEL_LOAD_FAILED, EMBEDDER_MISMATCH, MODEL_FAILED, INVALID_ARGUMENT.
 */
import { LRUCache } from "lru-cache";
import { createError } from "../errors.js";
import type { EmbedderOptions } from "./create-embedder.js";
import type { Embedder } from "./embedder.js";
import { startEmbedderWorker } from "./model-worker-client.js";

export interface QueryEncoder {
  readonly id: string;
  readonly dimension: number;
  embedQuery(text: string): Promise<Float32Array>;
  embedMany(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

export interface QueryEncoderOptions extends EmbedderOptions {
  /** Query vectors kept in the LRU cache (default 10,000: about 20 MB of 512-d vectors). */
  cacheSize?: number;
}

const DEFAULT_CACHE_SIZE = 10_000;
// Texts per worker call when requests pile up; bounds the latency one batch adds to the requests behind it.
const MAX_BATCH = 32;

export async function createQueryEncoder(options: QueryEncoderOptions = {}): Promise<QueryEncoder> {
  const embedder = await startEmbedderWorker(options);
  return queryEncoderOver(embedder, options.cacheSize ?? DEFAULT_CACHE_SIZE);
}

interface Waiting {
  text: string;
  resolve: (vector: Float32Array) => void;
  reject: (error: Error) => void;
}

/** Caching and batching over any embedder (the worker-backed one above, in production). */
export function queryEncoderOver(embedder: Embedder, cacheSize: number): QueryEncoder {
  const cache = new LRUCache<string, Float32Array>({ max: Math.max(1, cacheSize) });
  const inFlight = new Map<string, Promise<Float32Array>>();
  let queue: Waiting[] = [];
  let busy = false;

  const drain = () => {
    if (busy || queue.length === 0) return;
    busy = true;
    const batch = queue.slice(0, MAX_BATCH);
    queue = queue.slice(MAX_BATCH);
    embedder
      .embed(batch.map((waiting) => waiting.text))
      .then(
        (vectors) => batch.forEach((waiting, index) => waiting.resolve(vectors[index]!)),
        (error: Error) => batch.forEach((waiting) => waiting.reject(error)),
      )
      .finally(() => {
        busy = false;
        drain();
      });
  };

  const lookup = (text: string): Promise<Float32Array> => {
    if (typeof text !== "string") return Promise.reject(createError("INVALID_ARGUMENT", `a query must be a string, got ${text === null ? "null" : typeof text}`));
    const cached = cache.get(text);
    if (cached) return Promise.resolve(cached);
    let pending = inFlight.get(text);
    if (!pending) {
      pending = new Promise<Float32Array>((resolve, reject) =>
        queue.push({
          text,
          resolve: (vector) => {
            cache.set(text, vector);
            inFlight.delete(text);
            resolve(vector);
          },
          reject: (error) => {
            inFlight.delete(text);
            reject(error);
          },
        }),
      );
      inFlight.set(text, pending);
    }
    return pending;
  };

  return {
    id: embedder.id,
    dimension: embedder.dimension,
    async embedQuery(text) {
      const vector = lookup(text);
      drain();
      return (await vector).slice();
    },
    async embedMany(texts) {
      const vectors = texts.map(lookup);
      drain();
      return (await Promise.all(vectors)).map((vector) => vector.slice());
    },
    async close() {
      const closing = queue;
      queue = [];
      for (const waiting of closing) waiting.reject(createError("MODEL_FAILED", "query encoder closed"));
      await embedder.close();
    },
  };
}
