import type { EvalCase } from "../../src/eval/eval-set.js";
import type { Embedder } from "../../src/models/embedder.js";
import { BASELINE_ROUTED_SHARE, keepRoutedThreshold } from "./keep-routed-threshold.js";
import { positionsOf, rankByScore } from "./rank-by-score.js";
import type { MethodAnswer, RoutingMethod } from "./routing-method.js";

/** Every skill's score for a query (in skill order; a searcher that returns only its best may leave the others 0), and the time spent embedding it. */
export type ScoreQuery = (query: string, candidates?: string[]) => Promise<{ scores: ArrayLike<number>; embedMs: number }>;

/**
 * A method that only ranks (BM25, cosine): it injects its best skill when the score reaches a threshold
 * chosen on the training cases to keep BASELINE_ROUTED_SHARE of them routed, as such searchers are deployed.
 */
export async function scoreRouter(names: string[], score: ScoreQuery, train: EvalCase[], close: () => Promise<void>): Promise<RoutingMethod> {
  const byName = new Map(names.map((name, index) => [name, index]));
  const rank = async (query: string, candidates?: string[]) => {
    const { scores, embedMs } = await score(query, candidates);
    return { ...rankByScore(names, scores, positionsOf(byName, candidates)), embedMs };
  };
  const bests: number[] = [];
  for (const item of train) if (item.expected !== null) bests.push((await rank(item.query, item.candidates)).best);
  const threshold = keepRoutedThreshold(bests, BASELINE_ROUTED_SHARE);
  return {
    calibrated: false,
    async route(query: string, candidates?: string[]): Promise<MethodAnswer> {
      const { ranked, best, embedMs } = await rank(query, candidates);
      const inject = ranked.length > 0 && best >= threshold;
      return { ranked, confidence: 0, decision: inject ? "inject" : "none", selected: inject ? [ranked[0]!] : [], embedMs };
    },
    close,
  };
}

/** A scoreRouter over the query's embedding: `scoreVector` scores every skill, in order, for the query's vector. */
export function embeddingScoreRouter(names: string[], embedder: Embedder, train: EvalCase[], scoreVector: (vector: Float32Array, candidates?: string[]) => Float32Array): Promise<RoutingMethod> {
  const score = async (query: string, candidates?: string[]) => {
    const started = performance.now();
    const [vector] = await embedder.embed([query]);
    const embedMs = performance.now() - started;
    return { scores: scoreVector(vector!, candidates), embedMs };
  };
  return scoreRouter(names, score, train, () => embedder.close());
}
