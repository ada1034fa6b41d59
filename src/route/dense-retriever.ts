import { dotRow } from "../models/vector-math.js";
import type { RouteQuery } from "./query.js";
import type { Candidate, RetrievalSources, Retriever } from "./retriever.js";
import { signCodes } from "./sign-codes.js";
import { topK } from "./top-k.js";

// Below this many skills an exact scan of the centroids is cheaper than building and using their bit codes.
const EXACT_SCAN_LIMIT = 2_000;
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
  const scores = new Float32Array(count);
  const codes = count > EXACT_SCAN_LIMIT ? model.centroidCodes : undefined;
  return {
    name: "dense",
    retrieve(query: RouteQuery, limit: number, allowed?: (skill: number) => boolean): Candidate[] {
      // A query in a script the embedder cannot read lands near everything: only its English gloss, if any, finds candidates.
      const vector = query.readable ? query.vector : query.gloss;
      if (!vector) return [];
      const pool = codes ? nearestByCode(codes, signCodes(vector, 1, dimension), count, Math.max(RESCORE_MIN, limit * RESCORE_FACTOR), allowed) : undefined;
      scores.fill(-Infinity);
      if (pool) for (const skill of pool) scores[skill] = dotRow(vector, centroids, skill, dimension);
      else for (let skill = 0; skill < count; skill++) if (!allowed || allowed(skill)) scores[skill] = dotRow(vector, centroids, skill, dimension);
      return topK(scores, limit, (skill) => scores[skill]! > -Infinity).map((skill) => ({ skill, score: scores[skill]! }));
    },
  };
}

/** The `size` allowed rows whose codes differ from the query's in the fewest bits (a counting selection). */
function nearestByCode(codes: Uint32Array, query: Uint32Array, count: number, size: number, allowed?: (skill: number) => boolean): number[] {
  const words = query.length;
  const distances = new Uint16Array(count);
  const histogram = new Uint32Array(words * 32 + 2);
  for (let row = 0; row < count; row++) {
    if (allowed && !allowed(row)) {
      distances[row] = words * 32 + 1;
      continue;
    }
    let distance = 0;
    for (let word = 0; word < words; word++) distance += popcount(codes[row * words + word]! ^ query[word]!);
    distances[row] = distance;
    histogram[distance]!++;
  }
  let cutoff = 0;
  for (let taken = 0; cutoff < words * 32 && taken + histogram[cutoff]! < size; cutoff++) taken += histogram[cutoff]!;
  const pool: number[] = [];
  for (let row = 0; row < count; row++) if (distances[row]! <= cutoff) pool.push(row);
  return pool;
}

function popcount(value: number): number {
  let x = value - ((value >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}
