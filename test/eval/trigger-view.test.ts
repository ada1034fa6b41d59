import { describe, expect, it } from "vitest";
import { computeMetrics } from "../../src/eval/metrics.js";
import type { CaseOutcome } from "../../src/eval/run-cases.js";
import { triggerCases } from "../../src/eval/trigger-eval.js";
import { routedElsewhere, triggerAccuracy, triggerView } from "../../src/eval/trigger-view.js";
import type { RankedSkill, RouteResult } from "../../src/contract/route.js";

function outcome(expected: string | null, injected: string | null, ranked: [string, number][]): CaseOutcome {
  const skills = ranked.map(([name, confidence]) => ({ name, confidence }) as RankedSkill);
  const result = { decision: injected ? "inject" : "none", selected: injected ? [injected] : [], skills, reason: injected ? null : "below_threshold" } as RouteResult;
  return { query: "q", expected, ranked: ranked.map(([name]) => name), confidence: ranked[0]?.[1] ?? 0, decision: result.decision, selected: result.selected, offered: [], latencyMs: 1, result };
}

describe("trigger evals", () => {
  it("turns should_trigger into the skill or null", () => {
    expect(
      triggerCases(
        [
          { query: "a", should_trigger: true },
          { query: "b", should_trigger: false },
        ],
        "pdf",
      ),
    ).toEqual([
      { query: "a", expected: "pdf" },
      { query: "b", expected: null },
    ]);
  });

  it("counts only whether THAT skill was injected", () => {
    const outcomes = [
      outcome("pdf", "pdf", [["pdf", 0.9]]), // triggered: right
      outcome("pdf", "word", [
        ["word", 0.6],
        ["pdf", 0.3],
      ]), // another skill took it: a miss
      outcome(null, "word", [
        ["word", 0.8],
        ["pdf", 0.1],
      ]), // should not, went elsewhere: right for pdf
      outcome(null, "pdf", [["pdf", 0.7]]), // should not, triggered: a false trigger
      outcome(null, null, [["pdf", 0.2]]), // should not, none: right
    ];
    const viewed = outcomes.map((item) => triggerView(item, "pdf"));
    expect(viewed.map((item) => item.decision)).toEqual(["inject", "none", "none", "inject", "none"]);
    expect(viewed.map((item) => item.confidence)).toEqual([0.9, 0.3, 0.1, 0.7, 0.2]);
    const metrics = computeMetrics(viewed);
    expect(metrics.correct_inject).toBe(0.5);
    expect(metrics.abstain_recall).toBeCloseTo(2 / 3);
    expect(metrics.false_trigger).toBe(1 / 5);
    expect(routedElsewhere(outcomes, "pdf")).toBe(1);
    // skill-creator's pass rate: 1 of 2 should-trigger cases and 2 of 3 should-not cases decided right.
    expect(triggerAccuracy(metrics)).toBeCloseTo(3 / 5);
  });
});
