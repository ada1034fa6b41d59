import type { ScoredOutcome } from "./run-cases.js";

/** Written in the wire's snake_case: `router eval --json`, `router fit --json` and `POST /eval` print it as it is. */
export interface EvalMetrics {
  cases: number;
  in_scope: number;
  no_skill: number;
  /** In-scope cases whose best-ranked skill is the expected one. */
  top1: number;
  recall_at_3: number;
  mrr: number;
  /** In-scope cases where the router injected something (right or wrong). */
  routed: number;
  /** In-scope cases where the router injected exactly the expected skill. */
  correct_inject: number;
  /** In-scope cases answered with an offer, and those whose offer listed the expected skill (the agent can choose it). */
  offered: number;
  right_offered: number;
  /** In-scope cases where the expected skill reaches the agent if it chooses right: injected, or listed in the offer. */
  reachable: number;
  /** Skills an offer listed, on average. */
  offer_size: number;
  /** Of the cases that needed none, the share that got an offer or an injection anyway. */
  no_skill_answered: number;
  /** Of the cases answered none, the share that truly needed none. */
  abstain_precision: number;
  /** Of the cases that needed none, the share answered none. */
  abstain_recall: number;
  /** Share of cases where a skill was injected that should not have been (wrong skill or none expected). */
  false_trigger: number;
  /** Expected calibration error of the best candidate's confidence against "the injection is right". */
  ece: number;
  latency_ms: { p50: number; p95: number; p99: number };
}

/** Ranked candidates kept per case, by `router eval` and every bench method: recall@3 needs 3, MRR is computed over these (MRR@10). */
export const EVAL_K = 10;

const ECE_BINS = 10;

export function computeMetrics(outcomes: ScoredOutcome[]): EvalMetrics {
  const inScope = outcomes.filter((outcome) => outcome.expected !== null);
  const noSkill = outcomes.filter((outcome) => outcome.expected === null);
  const rankOf = (outcome: ScoredOutcome) => outcome.ranked.indexOf(outcome.expected!);
  const abstained = outcomes.filter((outcome) => outcome.decision === "none");
  const injectedRight = (outcome: ScoredOutcome) => outcome.decision === "inject" && outcome.expected !== null && outcome.selected.includes(outcome.expected);
  const rightOffered = (outcome: ScoredOutcome) => outcome.decision === "offer" && outcome.expected !== null && outcome.offered.includes(outcome.expected);
  const offers = outcomes.filter((outcome) => outcome.decision === "offer");
  return {
    cases: outcomes.length,
    in_scope: inScope.length,
    no_skill: noSkill.length,
    top1: share(inScope, (outcome) => rankOf(outcome) === 0),
    recall_at_3: share(inScope, (outcome) => rankOf(outcome) >= 0 && rankOf(outcome) < 3),
    mrr: inScope.length > 0 ? inScope.reduce((sum, outcome) => sum + (rankOf(outcome) >= 0 ? 1 / (rankOf(outcome) + 1) : 0), 0) / inScope.length : 0,
    routed: share(inScope, (outcome) => outcome.decision === "inject"),
    correct_inject: share(inScope, injectedRight),
    offered: share(inScope, (outcome) => outcome.decision === "offer"),
    right_offered: share(inScope, rightOffered),
    reachable: share(inScope, (outcome) => injectedRight(outcome) || rightOffered(outcome)),
    offer_size: offers.length > 0 ? offers.reduce((sum, outcome) => sum + outcome.offered.length, 0) / offers.length : 0,
    no_skill_answered: share(noSkill, (outcome) => outcome.decision !== "none"),
    abstain_precision: share(abstained, (outcome) => outcome.expected === null),
    abstain_recall: share(noSkill, (outcome) => outcome.decision === "none"),
    false_trigger: share(outcomes, (outcome) => outcome.decision === "inject" && !injectedRight(outcome)),
    ece: expectedCalibrationError(outcomes.map((outcome) => ({ confidence: outcome.confidence, right: outcome.expected !== null && outcome.ranked[0] === outcome.expected }))),
    latency_ms: percentiles(outcomes.map((outcome) => outcome.latencyMs)),
  };
}

function share<T>(items: T[], test: (item: T) => boolean): number {
  return items.length > 0 ? items.filter(test).length / items.length : 0;
}

/** Mean |confidence - accuracy| over equal-width confidence bins, weighted by bin size. */
function expectedCalibrationError(points: { confidence: number; right: boolean }[]): number {
  const bins = Array.from({ length: ECE_BINS }, () => ({ count: 0, confidence: 0, right: 0 }));
  for (const point of points) {
    const bin = bins[Math.min(ECE_BINS - 1, Math.floor(point.confidence * ECE_BINS))]!;
    bin.count++;
    bin.confidence += point.confidence;
    bin.right += point.right ? 1 : 0;
  }
  return points.length > 0 ? bins.reduce((sum, bin) => sum + (bin.count > 0 ? Math.abs(bin.confidence - bin.right) : 0), 0) / points.length : 0;
}

export function percentiles(values: number[]): { p50: number; p95: number; p99: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}
