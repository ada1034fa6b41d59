/**
 * The query path's encoder: embeds user messages for routing, in milliseconds, without blocking the server.
 *
 *   const encoder = await createQueryEncoder({ indexEmbedder: readMeta(db).embedder ?? null, workers: 2 });
 *   encoder.id, encoder.dimension          // the embedder in use; equals the index's when one is given
 *   await encoder.embedQuery("why does my pod keep restarting")   // Float32Array, unit length
 *   await encoder.embedMany(["first", "second"])                  // one vector per text, in order
 *   await encoder.close()                                          // stops the worker threads
 *
 * - Inference runs in worker threads (`workers`, default 1, each with its own copy of the model), so health
 *   checks and other requests are answered while they embed.
 * - An LRU cache keeps recent query vectors (agents resend the same messages); every call returns a fresh
 *   copy, so callers may modify it. A text already being embedded is embedded once for every caller.
 * - Concurrent calls are micro-batched: calls made in the same tick go out together; while every worker is busy,
 *   new texts wait and go together (at most `maxBatch`) to the first worker that frees up; while some batch is in
 *   flight, an idle worker waits up to `batchWindowMs` for more texts to join its batch. With nothing in flight a
 *   text goes at once, so a lone query never waits for the window.
 * - A caller's `signal` firing rejects its call at once; a text still queued that no caller waits for any more is
 *   never sent (a request that timed out costs the worker nothing once its deadline has passed).
 * - A batch that fails is embedded again text by text: a text the model cannot embed fails its own caller only.
 *   `close()` rejects queued and in-flight calls with MODEL_FAILED, and every later call.
 * - `indexEmbedder` picks the embedder that built the index (EMBEDDER_MISMATCH when it is not available);
 *   without it the choice follows `auto` (MiniLM when its files are in models/, else the offline default).
 * - `queryEncoderOver(embedders, cacheSize, batching)` adds the same cache and batching to embedders in process.
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
  /** `signal` stops waiting: the call rejects with its reason, and the text is dropped if nobody else waits for it. */
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array>;
  embedMany(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

export interface QueryBatching {
  /**
   * Most texts in one call to a worker (default 4). Every text of a batch is padded to its longest, so on a mix of
   * short and long messages the CPU per text is lowest at 2 to 4 and rises past them (bench/RESULTS.md, Throughput).
   */
  maxBatch?: number;
  /** Longest a text waits for others to join its batch, and only while other batches are in flight (default 2 ms; 0: never). */
  batchWindowMs?: number;
}

export interface QueryEncoderOptions extends EmbedderOptions, QueryBatching {
  /** Query vectors kept in the LRU cache (default 10,000: about 20 MB of 512-d vectors). */
  cacheSize?: number;
  /** Worker threads embedding queries, each loading the model (default 1; `router serve` takes ROUTER_EMBED_WORKERS). */
  workers?: number;
}

// The window is about one short query's embedding time: a held query never waits much longer than the batch ahead of it.
export const QUERY_BATCHING_DEFAULTS: Required<QueryBatching> = { maxBatch: 4, batchWindowMs: 2 };
const DEFAULT_CACHE_SIZE = 10_000;

export async function createQueryEncoder(options: QueryEncoderOptions = {}): Promise<QueryEncoder> {
  const count = options.workers ?? 1;
  if (!Number.isInteger(count) || count < 1) throw createError("INVALID_ARGUMENT", `workers must be a positive integer; got ${count}`);
  // Started side by side: each worker loads its own model, so start-up takes about as long as one.
  const started = await Promise.allSettled(Array.from({ length: count }, () => startEmbedderWorker(options)));
  const failed = started.find((outcome) => outcome.status === "rejected");
  const workers = started.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  if (failed) {
    await Promise.all(workers.map((worker) => worker.close()));
    throw failed.reason;
  }
  return queryEncoderOver(workers, options.cacheSize ?? DEFAULT_CACHE_SIZE, options);
}

interface Waiting {
  text: string;
  queuedAt: number;
  /** Callers waiting for this text, and how many of them have given up (their signal fired). */
  callers: number;
  abandoned: number;
  resolve: (vector: Float32Array) => void;
  reject: (error: Error) => void;
}

/** Caching and micro-batching over embedders that all run the same model (worker-backed ones in production). */
export function queryEncoderOver(embedders: Embedder | readonly Embedder[], cacheSize: number, batching: QueryBatching = {}): QueryEncoder {
  const pool = Array.isArray(embedders) ? [...(embedders as readonly Embedder[])] : [embedders as Embedder];
  const maxBatch = positive("maxBatch", batching.maxBatch ?? QUERY_BATCHING_DEFAULTS.maxBatch);
  const windowMs = batching.batchWindowMs ?? QUERY_BATCHING_DEFAULTS.batchWindowMs;
  if (!(windowMs >= 0)) throw createError("INVALID_ARGUMENT", `batchWindowMs must be 0 or more; got ${windowMs}`);
  const cache = new LRUCache<string, Float32Array>({ max: Math.max(1, cacheSize) });
  const inFlight = new Map<string, Promise<Float32Array>>();
  const idle = [...pool];
  let queue: Waiting[] = [];
  // The queued (not yet sent) entry of each text, so a second caller of the same text counts as one more waiting.
  const queued = new Map<string, Waiting>();
  let running = 0;
  let pumpQueued = false;
  let windowTimer: NodeJS.Timeout | undefined;
  let closed = false;

  // `flush`: the window of the oldest queued text is over, so its batch goes even if small.
  const pump = (flush = false) => {
    const unwanted = queue.filter((waiting) => waiting.abandoned >= waiting.callers);
    if (unwanted.length > 0) {
      queue = queue.filter((waiting) => waiting.abandoned < waiting.callers);
      for (const waiting of unwanted) {
        queued.delete(waiting.text);
        waiting.reject(createError("MODEL_FAILED", "every caller gave up before the text was embedded"));
      }
    }
    while (idle.length > 0 && queue.length > 0) {
      const waited = performance.now() - queue[0]!.queuedAt;
      if (!flush && running > 0 && queue.length < maxBatch && waited < windowMs) {
        windowTimer ??= setTimeout(() => {
          windowTimer = undefined;
          pump(true);
        }, windowMs - waited);
        return;
      }
      clearTimeout(windowTimer);
      windowTimer = undefined;
      const batch = queue.splice(0, maxBatch);
      for (const waiting of batch) queued.delete(waiting.text);
      void send(idle.pop()!, batch);
    }
  };

  const send = async (embedder: Embedder, batch: Waiting[]) => {
    running++;
    try {
      const vectors = await embedder.embed(batch.map((waiting) => waiting.text));
      batch.forEach((waiting, index) => waiting.resolve(vectors[index]!));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error as Error);
      // One text the model cannot embed must not fail the others that happened to share its batch.
      else for (const waiting of batch) await embedder.embed([waiting.text]).then(([vector]) => waiting.resolve(vector!), waiting.reject);
    } finally {
      running--;
      idle.push(embedder);
      pump();
    }
  };

  const lookup = (text: string, signal?: AbortSignal): Promise<Float32Array> => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (closed) return Promise.reject(createError("MODEL_FAILED", "query encoder closed"));
    if (typeof text !== "string") return Promise.reject(createError("INVALID_ARGUMENT", `a query must be a string, got ${text === null ? "null" : typeof text}`));
    const cached = cache.get(text);
    if (cached) return Promise.resolve(cached);
    let pending = inFlight.get(text);
    if (pending) {
      const waiting = queued.get(text);
      if (waiting) waiting.callers++;
    } else {
      pending = new Promise<Float32Array>((resolve, reject) => {
        const waiting: Waiting = {
          text,
          queuedAt: performance.now(),
          callers: 1,
          abandoned: 0,
          resolve: (vector) => {
            cache.set(text, vector);
            inFlight.delete(text);
            resolve(vector);
          },
          reject: (error) => {
            inFlight.delete(text);
            reject(error);
          },
        };
        queue.push(waiting);
        queued.set(text, waiting);
      });
      // A text nobody waits for any more is rejected inside; that rejection is nobody's to handle.
      pending.catch(() => undefined);
      inFlight.set(text, pending);
      // At the end of this tick: every call made in it joins the same batch.
      if (!pumpQueued) {
        pumpQueued = true;
        queueMicrotask(() => {
          pumpQueued = false;
          pump();
        });
      }
    }
    return signal
      ? abandonable(pending, signal, () => {
          const waiting = queued.get(text);
          if (waiting) waiting.abandoned++;
        })
      : pending;
  };

  return {
    id: pool[0]!.id,
    dimension: pool[0]!.dimension,
    async embedQuery(text, signal) {
      return (await lookup(text, signal)).slice();
    },
    async embedMany(texts) {
      return (await Promise.all(texts.map((text) => lookup(text)))).map((vector) => vector.slice());
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(windowTimer);
      const closing = queue;
      queue = [];
      queued.clear();
      for (const waiting of closing) waiting.reject(createError("MODEL_FAILED", "query encoder closed"));
      await Promise.all(pool.map((embedder) => embedder.close()));
    },
  };
}

/** `pending`, or its signal's reason as soon as the signal fires (then `onAbandon` runs once). */
function abandonable(pending: Promise<Float32Array>, signal: AbortSignal, onAbandon: () => void): Promise<Float32Array> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      onAbandon();
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

function positive(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw createError("INVALID_ARGUMENT", `${name} must be a positive integer; got ${value}`);
  return value;
}
