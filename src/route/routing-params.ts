import { FEATURES, SCOPE_FEATURES, type Feature, type RoutingParams, type ScopeFeature, type ScopeModel } from "../store/routing-params.js";
import { KNN_DEPTH, type Evidence } from "./signals.js";
import { LargestK } from "./top-k.js";

export { FEATURES, SCOPE_FEATURES, type Feature, type RoutingParams, type ScopeFeature } from "../store/routing-params.js";

/** Feature vector of each candidate; several features compare a candidate with the others of the query. */
export function featureRows(evidence: Evidence[]): number[][] {
  let leader = -1;
  let best = -Infinity;
  let runnerUp = -Infinity;
  let bestBm25 = 0;
  evidence.forEach((item, index) => {
    const value = item.signals.q2q_max;
    if (value > best) [runnerUp, best, leader] = [best, value, index];
    else if (value > runnerUp) runnerUp = value;
    bestBm25 = Math.max(bestBm25, item.bm25Raw);
  });
  const votes = knnVotes(evidence);
  const q2qRank = ranks(evidence.map((item) => item.signals.q2q_max));
  const bm25Rank = ranks(evidence.map((item) => item.bm25Raw));
  const q2dRank = ranks(evidence.map((item) => item.signals.q2d));
  return evidence.map((item, index) => {
    const rival = index === leader ? runnerUp : best;
    const signals = item.signals;
    const values: Record<Feature, number> = {
      q2q_max: signals.q2q_max,
      q2q_topk: signals.q2q_topk,
      q2d: signals.q2d,
      q2c: signals.q2c,
      bm25: signals.bm25,
      bm25_rel: bestBm25 > 0 ? item.bm25Raw / bestBm25 : 0,
      keywords: Math.min(signals.keyword_hits, 3) / 3,
      phrases: Math.min(signals.phrase_hits, 2) / 2,
      negative: signals.negative,
      // How clearly this candidate's best match beats every other candidate's.
      q2q_gap: Number.isFinite(rival) ? signals.q2q_max - rival : signals.q2q_max,
      knn_vote: votes[index]!,
      q2q_rr: 1 / (1 + q2qRank[index]!),
      bm25_rr: item.bm25Raw > 0 ? 1 / (1 + bm25Rank[index]!) : 0,
      q2d_rr: 1 / (1 + q2dRank[index]!),
    };
    return FEATURES.map((feature) => values[feature]);
  });
}

export function rankingLogit(params: RoutingParams, row: number[]): number {
  return FEATURES.reduce((sum, feature, index) => sum + params.ranking[feature] * row[index]!, 0);
}

/** The in-scope model's inputs, from the best candidate (by logit) and the runner-up's logit. */
export function scopeRow(best: Evidence, bestLogit: number, runnerUpLogit: number, abstainSim: number): number[] {
  const signals = best.signals;
  const heuristic = best.heuristicManifest ? 1 : 0;
  const values: Record<ScopeFeature, number> = {
    top_logit: bestLogit,
    logit_gap: Number.isFinite(runnerUpLogit) ? Math.min(bestLogit - runnerUpLogit, 10) : 10,
    q2q_max: signals.q2q_max,
    q2q_topk: signals.q2q_topk,
    q2c: signals.q2c,
    bm25: signals.bm25,
    keywords: Math.min(signals.keyword_hits, 3) / 3,
    abstain_sim: abstainSim,
    // Heuristic manifests hold description sentences, not user requests: their similarities sit lower.
    heuristic,
    heuristic_q2q: heuristic * signals.q2q_max,
  };
  return SCOPE_FEATURES.map((feature) => values[feature]);
}

/** P(some skill applies) for a scope row: the index's own model for a request-written best candidate, where it has one. */
export function scopeProbability(params: RoutingParams, row: number[]): number {
  const heuristic = row[SCOPE_FEATURES.indexOf("heuristic")] === 1;
  return scopeModelProbability(params.requestScope && !heuristic ? params.requestScope : params.scope, row);
}

export function scopeModelProbability(model: ScopeModel, row: number[]): number {
  return sigmoid(SCOPE_FEATURES.reduce((sum, feature, index) => sum + model.weights[feature] * row[index]!, model.bias));
}

/** Softmax of logits: each candidate's probability of being the one, given that one applies. */
export function shares(logits: number[]): number[] {
  const top = Math.max(...logits);
  const exps = logits.map((value) => Math.exp(value - top));
  const total = exps.reduce((sum, value) => sum + value, 0);
  return exps.map((value) => value / total);
}

export function sigmoid(value: number): number {
  return 1 / (1 + Math.exp(-value));
}

/** Rank of each value among all (0 = highest). */
function ranks(values: number[]): number[] {
  const order = values.map((_, index) => index).sort((a, b) => values[b]! - values[a]!);
  const result = new Array<number>(values.length);
  order.forEach((index, rank) => (result[index] = rank));
  return result;
}

/** Share of the K nearest synthetic queries (over all candidates) that belong to each candidate. */
function knnVotes(evidence: Evidence[]): number[] {
  // Tagged with their owners; ties go to the earlier candidate.
  const nearest = new LargestK(KNN_DEPTH);
  evidence.forEach((item, owner) => {
    // Each candidate's similarities come best first: once one misses the K kept, the rest do too.
    for (const sim of item.topQuerySims) if (!nearest.offer(sim, owner)) break;
  });
  const total = nearest.values.reduce((sum, sim) => sum + Math.max(sim, 0), 0);
  const votes = new Array<number>(evidence.length).fill(0);
  nearest.values.forEach((sim, at) => (votes[nearest.tags[at]!]! += total > 0 ? Math.max(sim, 0) / total : 0));
  return votes;
}
