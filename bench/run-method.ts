import type { EvalCase } from "../src/eval/eval-set.js";
import type { ScoredOutcome } from "../src/eval/run-cases.js";
import type { RoutingMethod } from "./methods/routing-method.js";

export interface MethodOutcome extends ScoredOutcome {
  embedMs: number;
}

/** Routes every case with one method, in order, timing each call (wall clock, in-process). */
export async function runMethod(method: RoutingMethod, cases: EvalCase[]): Promise<MethodOutcome[]> {
  const outcomes: MethodOutcome[] = [];
  for (const item of cases) {
    const started = performance.now();
    const answer = await method.route(item.query, item.candidates);
    const latencyMs = performance.now() - started;
    outcomes.push({
      expected: item.expected,
      ranked: answer.ranked,
      confidence: answer.confidence,
      decision: answer.decision,
      selected: answer.selected,
      offered: answer.offered ?? [],
      latencyMs,
      embedMs: answer.embedMs,
    });
  }
  return outcomes;
}
