import { featureRows, rankingLogit, scopeProbability, scopeRow, shares, type FusionParams } from "./fusion.js";
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
}

export interface Scoring {
  /** Best first. */
  ranked: ScoredCandidate[];
  /** P(some skill applies). */
  inScope: number;
  scopeFeatures: number[];
}

const SIMILARITIES = ["q2q_max", "q2q_topk", "q2d", "q2c"] as const;
// A wrong skill's best query similarity, for indexes too small to measure it (0.60-0.76 on the five eval indexes).
const TYPICAL_WRONG_SIMILARITY = 0.65;

/** The similarity `scoreCandidates` assumes for a query the embedder cannot read; undefined when it can. */
export function denseStandIn(params: FusionParams, readable: boolean): number | undefined {
  return readable ? undefined : (params.evidenceFloor?.q2qMax ?? TYPICAL_WRONG_SIMILARITY);
}

/** The candidates measured exactly and scored: the core of a route. */
export function scoreQuery(snapshot: Snapshot, query: RouteQuery, candidates: number[]): Scoring {
  const { model, fusion } = snapshot;
  const evidence = measureEvidence(model, snapshot.lexical, query, candidates);
  const abstainSim = query.readable ? abstainSimilarity(model.abstain, query.vector) : 0;
  return scoreCandidates(fusion, evidence, featureRows(evidence), abstainSim, denseStandIn(fusion, query.readable));
}

/**
 * Ranks candidates by the ranking model and puts a calibrated confidence on each. `denseStandIn`, for a query
 * the embedder cannot read, is the similarity the in-scope model assumes for the best candidate instead of
 * 0: a typical wrong skill's, so that dense evidence neither counts for nor against it and the words decide.
 */
export function scoreCandidates(params: FusionParams, evidence: Evidence[], rows: number[][], abstainSim: number, denseStandIn?: number): Scoring {
  if (evidence.length === 0) return { ranked: [], inScope: 0, scopeFeatures: [] };
  const logits = rows.map((row) => rankingLogit(params, row));
  const order = logits.map((_, index) => index).sort((a, b) => logits[b]! - logits[a]! || evidence[a]!.skill - evidence[b]!.skill);
  const probabilities = shares(logits);
  const [first, second] = order;
  const best = denseStandIn === undefined ? evidence[first!]! : withSimilarities(evidence[first!]!, denseStandIn);
  const bestLogit = logits[first!]! + (denseStandIn ?? 0) * SIMILARITIES.reduce((sum, feature) => sum + params.ranking[feature], 0);
  const scopeFeatures = scopeRow(best, bestLogit, second === undefined ? -Infinity : logits[second]!, abstainSim);
  const inScope = scopeProbability(params, scopeFeatures);
  return {
    ranked: order.map((index) => ({ evidence: evidence[index]!, features: rows[index]!, logit: logits[index]!, share: probabilities[index]!, confidence: inScope * probabilities[index]! })),
    inScope,
    scopeFeatures,
  };
}

function withSimilarities(evidence: Evidence, value: number): Evidence {
  return { ...evidence, signals: { ...evidence.signals, ...Object.fromEntries(SIMILARITIES.map((feature) => [feature, value])) } };
}
