import type { RankedSkill, RouteResult } from "../contract/route.js";
import type { CaseOutcome } from "./run-cases.js";

export type FailureKind = "wrong_skill" | "missed" | "false_trigger";

/** A case the router got wrong, with the evidence behind its answer. */
export interface Failure {
  query: string;
  expected: string | null;
  kind: FailureKind;
  /** What the router injected (empty when it answered none; in a trigger eval, possibly another skill). */
  injected: string[];
  /** Why it answered none, when it did. */
  reason: string | null;
  inScope: number;
  /** The in-scope threshold the decision used. */
  threshold: number;
  /** The evidence the best candidate had to show (see the route answer's `evidence_floor`). */
  evidenceFloor: RouteResult["evidence_floor"];
  /** Rank of the expected skill among the returned candidates (1 = first), or null when it was not among them. */
  expectedRank: number | null;
  /** The best candidates, best first, with signals, matched words and nearest example query. */
  candidates: RankedSkill[];
}

/**
 * wrong_skill: an in-scope case that injected another skill; missed: an in-scope case answered none;
 * false_trigger: a case that needed none but got a skill.
 */
export function listFailures(outcomes: CaseOutcome[], shown = 3): Failure[] {
  const failures: Failure[] = [];
  for (const outcome of outcomes) {
    const kind = failureKind(outcome);
    if (!kind) continue;
    const rank = outcome.expected === null ? -1 : outcome.ranked.indexOf(outcome.expected);
    failures.push({
      query: outcome.query,
      expected: outcome.expected,
      kind,
      injected: outcome.result.selected,
      reason: outcome.result.reason,
      inScope: outcome.result.in_scope,
      threshold: outcome.result.threshold,
      evidenceFloor: outcome.result.evidence_floor,
      expectedRank: rank >= 0 ? rank + 1 : null,
      candidates: outcome.result.skills.slice(0, shown),
    });
  }
  return failures;
}

function failureKind(outcome: CaseOutcome): FailureKind | undefined {
  const injected = outcome.decision === "inject";
  if (outcome.expected === null) return injected ? "false_trigger" : undefined;
  if (!injected) return "missed";
  return outcome.selected.includes(outcome.expected) ? undefined : "wrong_skill";
}
