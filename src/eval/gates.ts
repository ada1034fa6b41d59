import type { EvalMetrics } from "./metrics.js";
import { triggerAccuracy } from "./trigger-view.js";

/** Limits a CI job can hold an eval to: each one that is set must be met. */
export interface Gates {
  minAccuracy?: number;
  minRecallAt3?: number;
  minMrr?: number;
  minRouted?: number;
  minAbstain?: number;
  maxFalseTrigger?: number;
  maxEce?: number;
  maxP95Ms?: number;
}

export interface GateResult {
  gate: string;
  limit: number;
  /** null when the eval had no case to measure it on (then the gate fails). */
  actual: number | null;
  passed: boolean;
}

type Population = "in_scope" | "no_skill" | "cases";

/** What --min-accuracy holds an eval to: top-1 on in-scope cases, or for trigger evals the share of right trigger decisions. */
export type AccuracyKind = "top1" | "trigger";

const ACCURACY: Record<AccuracyKind, { value: (metrics: EvalMetrics) => number; over: Population }> = {
  top1: { value: (metrics) => metrics.top1, over: "in_scope" },
  trigger: { value: triggerAccuracy, over: "cases" },
};

const CHECKS: { key: keyof Gates; gate: string; value: (metrics: EvalMetrics) => number; over: Population; atLeast: boolean }[] = [
  { key: "minRecallAt3", gate: "--min-recall-at-3", value: (metrics) => metrics.recall_at_3, over: "in_scope", atLeast: true },
  { key: "minMrr", gate: "--min-mrr", value: (metrics) => metrics.mrr, over: "in_scope", atLeast: true },
  { key: "minRouted", gate: "--min-routed", value: (metrics) => metrics.routed, over: "in_scope", atLeast: true },
  { key: "minAbstain", gate: "--min-abstain", value: (metrics) => metrics.abstain_recall, over: "no_skill", atLeast: true },
  { key: "maxFalseTrigger", gate: "--max-false-trigger", value: (metrics) => metrics.false_trigger, over: "cases", atLeast: false },
  { key: "maxEce", gate: "--max-ece", value: (metrics) => metrics.ece, over: "cases", atLeast: false },
  { key: "maxP95Ms", gate: "--max-p95-ms", value: (metrics) => metrics.latency_ms.p95, over: "cases", atLeast: false },
];

/** Every gate that was set, with the measured value and whether it passed; a gate with nothing to measure fails. */
export function checkGates(metrics: EvalMetrics, gates: Gates, accuracy: AccuracyKind = "top1"): GateResult[] {
  const checks = [{ key: "minAccuracy" as const, gate: "--min-accuracy", ...ACCURACY[accuracy], atLeast: true }, ...CHECKS];
  return checks
    .filter((check) => gates[check.key] !== undefined)
    .map((check) => {
      const limit = gates[check.key]!;
      if (metrics[check.over] === 0) return { gate: check.gate, limit, actual: null, passed: false };
      const actual = check.value(metrics);
      return { gate: check.gate, limit, actual, passed: check.atLeast ? actual >= limit : actual <= limit };
    });
}
