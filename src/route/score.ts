import { featureRows, rankingLogit, scopeProbability, scopeRow, shares, type RoutingParams } from "./routing-params.js";
import type { RouteQuery } from "./query.js";
import { abstainSimilarity, measureEvidence, type Evidence } from "./signals.js";
import type { Snapshot } from "./snapshot.js";

export interface ScoredCandidate {
  evidence: Evidence;
  features: number[];
  logit: number;
  /** P(this skill | some skill applies). */
  share: number;
  /** P(some skill applies) x share: the probability that injecting this skill is right. */
  confidence: number;
  /** For the best candidate, once the decision has compared words: the position of the negative its manifest names that the request matches (route/near-miss.ts). */
  nearMiss?: number | null;
}

export interface Scoring {
  /** Best first. */
  ranked: ScoredCandidate[];
  /** P(some skill applies). */
  inScope: number;
  scopeFeatures: number[];
  /** Candidates scored as context for an allow-list but not eligible, best first. */
  context: { evidence: Evidence; features: number[] }[];
}

// A wrong skill's best query similarity, for indexes too small to measure it (0.60-0.76 on the five eval indexes).
const TYPICAL_WRONG_SIMILARITY = 0.65;

/** The similarity assumed where a query and a skill cannot be compared densely: a typical wrong skill's on this index. */
export function typicalSimilarity(params: RoutingParams): number {
  return params.evidenceFloor?.q2qMax ?? TYPICAL_WRONG_SIMILARITY;
}

/** The candidates measured exactly and scored: the core of a route. */
export function scoreQuery(snapshot: Snapshot, query: RouteQuery, candidates: number[], eligible?: (skill: number) => boolean): Scoring {
  const { model, params } = snapshot;
  const evidence = measureEvidence(model, snapshot.lexical, query, candidates, typicalSimilarity(params));
  const abstainSim = query.readable ? abstainSimilarity(model.abstain, query.vector) : 0;
  return scoreCandidates(params, evidence, featureRows(evidence), abstainSim, eligible);
}

/**
 * Ranks candidates by the ranking model and puts a calibrated confidence on each. With `eligible`, only those may be
 * chosen; the others are context: their evidence shapes the features and the runner-up the in-scope model reads.
 */
export function scoreCandidates(params: RoutingParams, evidence: Evidence[], rows: number[][], abstainSim: number, eligible?: (skill: number) => boolean): Scoring {
  const logits = rows.map((row) => rankingLogit(params, row));
  const order = logits.map((_, index) => index).sort((a, b) => logits[b]! - logits[a]! || evidence[a]!.skill - evidence[b]!.skill);
  const chosen: number[] = [];
  const context: Scoring["context"] = [];
  for (const index of order) {
    if (!eligible || eligible(evidence[index]!.skill)) chosen.push(index);
    else context.push({ evidence: evidence[index]!, features: rows[index]! });
  }
  const first = chosen[0];
  if (first === undefined) return { ranked: [], inScope: 0, scopeFeatures: [], context };
  const second = order.find((index) => index !== first);
  const scale = params.shareScale ?? 1;
  const probabilities = shares(chosen.map((index) => logits[index]! * scale));
  const scopeFeatures = scopeRow(evidence[first]!, logits[first]!, second === undefined ? -Infinity : logits[second]!, abstainSim);
  const inScope = scopeProbability(params, scopeFeatures);
  return {
    ranked: chosen.map((index, at) => ({ evidence: evidence[index]!, features: rows[index]!, logit: logits[index]!, share: probabilities[at]!, confidence: inScope * probabilities[at]! })),
    inScope,
    scopeFeatures,
    context,
  };
}
