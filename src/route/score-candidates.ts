import { rankingLogit, scopeProbability, scopeRow, shares, type FusionParams } from "./fusion.js";
import type { Evidence } from "./signals.js";

export interface ScoredCandidate {
  evidence: Evidence;
  features: number[];
  logit: number;
  /** P(this skill | some skill applies). */
  share: number;
  /** P(some skill applies) x share: the probability that injecting this skill is right. */
  confidence: number;
}

export interface Scoring {
  /** Best first. */
  ranked: ScoredCandidate[];
  /** P(some skill applies). */
  inScope: number;
  scopeFeatures: number[];
}

/** Ranks candidates by the ranking model and puts a calibrated confidence on each. */
export function scoreCandidates(params: FusionParams, evidence: Evidence[], rows: number[][], abstainSim: number): Scoring {
  if (evidence.length === 0) return { ranked: [], inScope: 0, scopeFeatures: [] };
  const logits = rows.map((row) => rankingLogit(params, row));
  const order = logits.map((_, index) => index).sort((a, b) => logits[b]! - logits[a]! || evidence[a]!.skill - evidence[b]!.skill);
  const probabilities = shares(logits);
  const [first, second] = order;
  const scopeFeatures = scopeRow(evidence[first!]!, logits[first!]!, second === undefined ? -Infinity : logits[second]!, abstainSim);
  const inScope = scopeProbability(params, scopeFeatures);
  return {
    ranked: order.map((index) => ({ evidence: evidence[index]!, features: rows[index]!, logit: logits[index]!, share: probabilities[index]!, confidence: inScope * probabilities[index]! })),
    inScope,
    scopeFeatures,
  };
}
