import type { Reranker } from "../models/embedder.js";
import type { RouteModel } from "./route-model.js";
import type { ScoredCandidate } from "./score.js";

// Candidates whose confidence is this close to the best one's count as tied; at most TIE_GROUP of them are read.
const TIE_WITHIN = 0.1;
const TIE_GROUP = 5;

/**
 * The cross-encoder's role (off by default, as its effect could not be measured here): it reads the query with
 * each of the candidates tied for first and orders them, and the tied confidences go to the skills in that order.
 * Candidates that are not close are never reread, so it cannot overturn a clear decision.
 */
export async function breakTies(reranker: Reranker, model: RouteModel, text: string, ranked: ScoredCandidate[]): Promise<ScoredCandidate[]> {
  const best = ranked[0];
  if (!best) return ranked;
  const tied = ranked.slice(0, TIE_GROUP).filter((item) => best.confidence - item.confidence <= TIE_WITHIN);
  if (tied.length < 2) return ranked;
  const passages = tied.map((item) => {
    const skill = model.skills[item.evidence.skill]!;
    return `${skill.name}: ${skill.description}`;
  });
  const scores = await reranker.score(text, passages);
  tied.forEach((item, index) => (item.evidence.signals.rerank = scores[index]!));
  const slots = tied.map(({ confidence, share, logit }) => ({ confidence, share, logit }));
  const reordered = tied
    .map((item, index) => ({ item, score: scores[index]! }))
    .sort((a, b) => b.score - a.score)
    .map(({ item }, position) => ({ ...item, ...slots[position]! }));
  return [...reordered, ...ranked.slice(tied.length)];
}
