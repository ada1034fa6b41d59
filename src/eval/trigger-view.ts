import type { EvalMetrics } from "./metrics.js";
import type { CaseOutcome } from "./run-cases.js";

/**
 * One skill's view of a routed case, for trigger evals: the only question is "was THIS skill injected?".
 * Injecting another skill counts as not triggering it: right when should_trigger is false, a miss when it is true.
 * The confidence is this skill's own (0 when it was not among the ranked candidates).
 */
export function triggerView(outcome: CaseOutcome, skill: string): CaseOutcome {
  const triggered = outcome.decision === "inject" && outcome.selected.includes(skill);
  return {
    ...outcome,
    decision: triggered ? "inject" : "none",
    selected: triggered ? [skill] : [],
    confidence: outcome.result.skills.find((ranked) => ranked.name === skill)?.confidence ?? 0,
  };
}

/** Should-not cases that went to some other skill: right for this skill, but worth a look for that one. */
export function routedElsewhere(outcomes: CaseOutcome[], skill: string): number {
  return outcomes.filter((outcome) => outcome.expected === null && outcome.decision === "inject" && !outcome.selected.includes(skill)).length;
}

/** Share of trigger evals decided right (triggered when it should, not when it should not): skill-creator's pass rate. */
export function triggerAccuracy(metrics: EvalMetrics): number {
  return metrics.cases > 0 ? (metrics.correct_inject * metrics.in_scope + metrics.abstain_recall * metrics.no_skill) / metrics.cases : 0;
}
