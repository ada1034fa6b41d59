import type { ScoredOutcome } from "./run-cases.js";

export interface EvalMetrics {
  cases: number;
  inScope: number;
  noSkill: number;
  /** In-scope cases whose best-ranked skill is the expected one. */
  top1: number;
  recallAt3: number;
  mrr: number;
  /** In-scope cases where the router injected something (right or wrong). */
  routed: number;
  /** In-scope cases where the router injected exactly the expected skill. */
  correctInject: number;
  /** Of the cases answered none, the share that truly needed none. */
  abstainPrecision: number;
  /** Of the cases that needed none, the share answered none. */
  abstainRecall: number;
  /** Share of cases where a skill was injected that should not have been (wrong skill or none expected). */
  falseTrigger: number;
  /** Expected calibration error of the best candidate's confidence against "the injection is right". */
  ece: number;
  latencyMs: { p50: number; p95: number; p99: number };
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
  return {
    cases: outcomes.length,
    inScope: inScope.length,
    noSkill: noSkill.length,
    top1: share(inScope, (outcome) => rankOf(outcome) === 0),
    recallAt3: share(inScope, (outcome) => rankOf(outcome) >= 0 && rankOf(outcome) < 3),
    mrr: inScope.length > 0 ? inScope.reduce((sum, outcome) => sum + (rankOf(outcome) >= 0 ? 1 / (rankOf(outcome) + 1) : 0), 0) / inScope.length : 0,
    routed: share(inScope, (outcome) => outcome.decision === "inject"),
    correctInject: share(inScope, injectedRight),
    abstainPrecision: share(abstained, (outcome) => outcome.expected === null),
    abstainRecall: share(noSkill, (outcome) => outcome.decision === "none"),
    falseTrigger: share(outcomes, (outcome) => outcome.decision === "inject" && !injectedRight(outcome)),
    ece: expectedCalibrationError(outcomes.map((outcome) => ({ confidence: outcome.confidence, right: outcome.expected !== null && outcome.ranked[0] === outcome.expected }))),
    latencyMs: percentiles(outcomes.map((outcome) => outcome.latencyMs)),
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
