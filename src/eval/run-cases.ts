import { routableQuery } from "../contract/limits.js";
import type { Router } from "../route/router.js";
import type { RouteResult } from "../contract/route.js";
import type { EvalCase } from "./eval-set.js";

/** What metrics need of any routing method's answer to a labelled case. */
export interface ScoredOutcome {
  expected: string | null;
  /** Ranked skill names, best first. */
  ranked: string[];
  /** Confidence of the best candidate. */
  confidence: number;
  decision: RouteResult["decision"];
  selected: string[];
  /** The skills an offer listed (empty unless the decision is offer). */
  offered: string[];
  latencyMs: number;
}

/** What the router answered for one labelled case. */
export interface CaseOutcome extends ScoredOutcome {
  query: string;
  result: RouteResult;
}

/**
 * How a labelled case is routed, by `router eval` and the benchmark alike: among its candidates when it has them, by its
 * beginning when over-long; `offer: false` for the inject-or-none rule alone.
 */
export function routeCase(router: Router, query: string, candidates: string[] | undefined, k: number, offer = true): Promise<RouteResult> {
  return router.route(routableQuery(query), { k, ...(candidates ? { skills: candidates } : {}), ...(offer ? {} : { offer: false }) });
}

/** What metrics read of a route result. */
export function scoredAnswer(result: RouteResult): Pick<ScoredOutcome, "ranked" | "confidence" | "decision" | "selected" | "offered"> {
  return {
    ranked: result.skills.map((skill) => skill.name),
    confidence: result.skills[0]?.confidence ?? 0,
    decision: result.decision,
    selected: result.selected,
    offered: result.offer?.skills.map((skill) => skill.name) ?? [],
  };
}

/** Routes every case (see routeCase), in order. */
export async function runCases(router: Router, cases: EvalCase[], k: number, onProgress?: (done: number, total: number) => void): Promise<CaseOutcome[]> {
  const outcomes: CaseOutcome[] = [];
  for (const [index, item] of cases.entries()) {
    const started = performance.now();
    const result = await routeCase(router, item.query, item.candidates, k);
    outcomes.push({ query: item.query, expected: item.expected, ...scoredAnswer(result), latencyMs: performance.now() - started, result });
    onProgress?.(index + 1, cases.length);
  }
  return outcomes;
}
