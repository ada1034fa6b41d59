import { describe, expect, it } from "vitest";
import { checkGates } from "../../src/eval/gates.js";
import { computeMetrics } from "../../src/eval/metrics.js";

const metrics = computeMetrics([
  { expected: "a", ranked: ["a", "b"], confidence: 0.9, decision: "inject", selected: ["a"], offered: [], latencyMs: 4 },
  { expected: "b", ranked: ["a", "b"], confidence: 0.6, decision: "inject", selected: ["a"], offered: [], latencyMs: 6 },
  { expected: null, ranked: ["b"], confidence: 0.2, decision: "none", selected: [], offered: [], latencyMs: 5 },
]);

describe("checkGates", () => {
  it("checks each gate that was set, in both directions", () => {
    const results = checkGates(metrics, { minAccuracy: 0.5, maxFalseTrigger: 0.2, maxP95Ms: 10 });
    expect(results).toEqual([
      { gate: "--min-accuracy", limit: 0.5, actual: 0.5, passed: true },
      { gate: "--max-false-trigger", limit: 0.2, actual: 1 / 3, passed: false },
      { gate: "--max-p95-ms", limit: 10, actual: 6, passed: true },
    ]);
  });

  it("holds trigger evals' accuracy to the share of cases decided right", () => {
    // Decided right: the first case (injected a) and the third (none, as it should); the second injected a for b.
    expect(checkGates(metrics, { minAccuracy: 0.6 }, "trigger")).toEqual([{ gate: "--min-accuracy", limit: 0.6, actual: 2 / 3, passed: true }]);
  });

  it("fails a gate there is nothing to measure on", () => {
    const inScopeOnly = computeMetrics([{ expected: "a", ranked: ["a"], confidence: 0.9, decision: "inject", selected: ["a"], offered: [], latencyMs: 1 }]);
    expect(checkGates(inScopeOnly, { minAbstain: 0.5 })).toEqual([{ gate: "--min-abstain", limit: 0.5, actual: null, passed: false }]);
  });
});
