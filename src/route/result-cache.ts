import { LRUCache } from "lru-cache";
import type { RouteOptions, RouteResult } from "../contract/route.js";
import type { Snapshot } from "./snapshot.js";

// Answers kept per index version: agents resend the same message (retries, several hooks), and a hit costs
// microseconds instead of an embedding and a scoring. Bounded in bytes, since answers with bodies are large.
const RESULT_CACHE_BYTES = 32 * 1024 * 1024;

/** An answer as cached: every caller gets its own route_id. */
type CachedResult = Omit<RouteResult, "route_id">;

export interface ResultCache {
  get(snapshot: Snapshot, query: string, options: RouteOptions): CachedResult | undefined;
  set(snapshot: Snapshot, query: string, options: RouteOptions, result: CachedResult): void;
}

/** Route answers by (index version, query, options): a new version starts empty, so no answer outlives its index. */
export function resultCache(): ResultCache {
  // Kept as JSON: parsing it gives every caller its own copy, so one that edits its answer cannot change the next one's.
  const caches = new WeakMap<Snapshot, LRUCache<string, string>>();
  const cacheOf = (snapshot: Snapshot) => {
    let cache = caches.get(snapshot);
    if (!cache) caches.set(snapshot, (cache = new LRUCache({ maxSize: RESULT_CACHE_BYTES, sizeCalculation: (answer) => 2 * answer.length })));
    return cache;
  };
  return {
    get(snapshot, query, options) {
      const hit = caches.get(snapshot)?.get(cacheKey(query, options));
      return hit === undefined ? undefined : (JSON.parse(hit) as CachedResult);
    },
    set(snapshot, query, options, result) {
      cacheOf(snapshot).set(cacheKey(query, options), JSON.stringify(result));
    },
  };
}

/** Everything that shapes an answer: the query and every option but the abort signal. */
function cacheKey(query: string, options: RouteOptions): string {
  const { signal: _signal, ...shaping } = options;
  return JSON.stringify([query, shaping]);
}
