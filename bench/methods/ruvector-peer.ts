// A CommonJS package whose exports Node cannot name statically: imported whole.
import ruvector from "@ruvector/router";
import type { EvalCase } from "../../src/eval/eval-set.js";
import { EVAL_K } from "../../src/eval/metrics.js";
import type { Embedder } from "../../src/models/embedder.js";
import type { RoutingMethod } from "./routing-method.js";
import { embeddingScoreRouter } from "./score-router.js";

/** A skill as the peer sees it: its description and, when the set has them, its example queries. */
export interface PeerSkill {
  name: string;
  description: string;
  queries?: string[];
}

// The peer drops results below its own threshold, 0.7 unless set (and 0 reads as unset): below any cosine, so every result is kept.
const KEEP_ALL = -2;

/**
 * (p) @ruvector/router, a peer: one intent per skill whose embedding is the centroid of its description and example
 * queries (the router's own embedder), searched by the peer's HNSW index for the best EVAL_K (every skill when the case
 * names candidates, which are then picked from its ranking). Threshold chosen like b's.
 */
export async function ruvectorPeer(skills: PeerSkill[], embedder: Embedder, train: EvalCase[]): Promise<RoutingMethod> {
  const router = new ruvector.SemanticRouter({ dimension: embedder.dimension, metric: "cosine", threshold: KEEP_ALL });
  for (const skill of skills) {
    const utterances = [skill.description || skill.name, ...(skill.queries ?? [])];
    router.addIntent({ name: skill.name, utterances, embedding: centroid(await embedder.embed(utterances), embedder.dimension) });
  }
  const position = new Map(skills.map((skill, index) => [skill.name, index]));
  return embeddingScoreRouter(
    skills.map((skill) => skill.name),
    embedder,
    train,
    (vector, candidates) => {
      const scores = new Float32Array(skills.length);
      for (const result of router.routeWithEmbedding(vector, candidates ? skills.length : EVAL_K)) scores[position.get(result.intent)!] = result.score;
      return scores;
    },
  );
}

/** The mean of some vectors: what the peer stores for an intent. */
function centroid(vectors: Float32Array[], dimension: number): Float32Array {
  const mean = new Float32Array(dimension);
  for (const vector of vectors) for (let i = 0; i < dimension; i++) mean[i]! += vector[i]! / vectors.length;
  return mean;
}
