import { LRUCache } from "lru-cache";
import type { RouteOptions, RouteResult } from "../contract/route.js";
import type { Snapshot } from "./snapshot.js";

// Answers kept per index version: agents resend the same message (retries, several hooks), and a hit costs
// microseconds instead of an embedding and a scoring. Bounded in bytes, since answers with bodies are large.
const RESULT_CACHE_BYTES = 32 * 1024 * 1024;
// What an answer without bodies weighs, roughly: k explained candidates.
const BASE_ANSWER_BYTES = 4096;

export interface ResultCache {
  get(snapshot: Snapshot, query: string, options: RouteOptions): RouteResult | undefined;
  set(snapshot: Snapshot, query: string, options: RouteOptions, result: RouteResult): void;
}

/** Route answers by (index version, query, options): a new version starts empty, so no answer outlives its index. */
export function resultCache(): ResultCache {
  const caches = new WeakMap<Snapshot, LRUCache<string, RouteResult>>();
  const cacheOf = (snapshot: Snapshot) => {
    let cache = caches.get(snapshot);
    if (!cache) caches.set(snapshot, (cache = new LRUCache({ maxSize: RESULT_CACHE_BYTES, sizeCalculation: answerBytes })));
    return cache;
  };
  return {
    get(snapshot, query, options) {
      const hit = caches.get(snapshot)?.get(cacheKey(query, options));
      // A copy, so a caller that edits its answer cannot change the next caller's.
      return hit && structuredClone(hit);
    },
    set(snapshot, query, options, result) {
      cacheOf(snapshot).set(cacheKey(query, options), structuredClone(result));
    },
  };
}

/** Everything that shapes an answer: the query and every option but the abort signal. */
function cacheKey(query: string, options: RouteOptions): string {
  const { signal: _signal, ...shaping } = options;
  return JSON.stringify([query, shaping]);
}

function answerBytes(result: RouteResult): number {
  return result.skills.reduce((sum, skill) => sum + 2 * (skill.body?.length ?? 0), BASE_ANSWER_BYTES);
}
