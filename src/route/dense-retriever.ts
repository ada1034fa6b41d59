import { HammingDistances } from "../models/hamming-distances.js";
import type { RouteQuery } from "./query.js";
import type { Candidate, RetrievalSources, Retriever } from "./retriever.js";
import { signCodes } from "../models/sign-codes.js";
import { topByKey, topK } from "./top-k.js";

// Below this many skills an exact scan of the centroids is cheaper than building and using their bit codes.
export const EXACT_SCAN_LIMIT = 2_000;
// Bit codes are a coarse guide: this many times `limit` survive to the exact rescoring (at least RESCORE_MIN).
const RESCORE_FACTOR = 10;
const RESCORE_MIN = 200;

/**
 * Dense retrieval over one centroid per skill (the mean of its queries and description), so a query costs
 * one comparison per skill however many synthetic queries each has. Large indexes compare sign-bit codes of
 * the centroids first (Hamming distance, 64 bytes a skill) and rescore only the closest exactly.
 */
export function denseRetriever({ model }: RetrievalSources): Retriever {
  const { centroids, dimension } = model;
  const count = model.skills.length;
  const codes = count > EXACT_SCAN_LIMIT ? new HammingDistances(model.centroidCodes, count, Math.ceil(dimension / 32)) : undefined;
  // A small index scans every centroid exactly, into one array reused by every query.
  const scores = codes ? undefined : new Float32Array(count);
  return {
    name: "dense",
    retrieve(query: RouteQuery, limit: number, allowed?: (skill: number) => boolean): Candidate[] {
      // A query in a script the embedder cannot read lands near everything: only its English gloss, if any, finds candidates.
      const vector = query.readable ? query.vector : query.gloss;
      if (!vector) return [];
      centroids.setQuery(vector);
      if (codes) {
        // Only the closest by code are rescored, and only they are ranked.
        const pool = Int32Array.from(nearestByCode(codes, signCodes(vector, 1, dimension), dimension, Math.max(RESCORE_MIN, limit * RESCORE_FACTOR), allowed));
        const poolScores = Float64Array.from(pool, (skill) => centroids.similarity(skill + 1));
        return topByKey(pool, poolScores, limit).map((at) => ({ skill: pool[at]!, score: poolScores[at]! }));
      }
      const exact = scores!;
      exact.fill(-Infinity);
      for (let skill = 0; skill < count; skill++) if (!allowed || allowed(skill)) exact[skill] = centroids.similarity(skill + 1);
      return topK(exact, limit, (skill) => exact[skill]! > -Infinity).map((skill) => ({ skill, score: exact[skill]! }));
    },
  };
}

/** The `size` allowed rows whose codes differ from the query's in the fewest bits (a counting selection). */
function nearestByCode(codes: HammingDistances, query: Uint32Array, bits: number, size: number, allowed?: (skill: number) => boolean): number[] {
  const distances = codes.distances(query);
  const histogram = new Uint32Array(bits + 1);
  for (let row = 0; row < distances.length; row++) {
    if (allowed && !allowed(row)) distances[row] = bits + 1;
    else histogram[distances[row]!]!++;
  }
  let cutoff = 0;
  for (let taken = 0; cutoff < bits && taken + histogram[cutoff]! < size; cutoff++) taken += histogram[cutoff]!;
  const pool: number[] = [];
  for (let row = 0; row < distances.length; row++) if (distances[row]! <= cutoff) pool.push(row);
  return pool;
}
