import { EVAL_K } from "../../src/eval/metrics.js";
import { routeCase, scoredAnswer } from "../../src/eval/run-cases.js";
import { createRouter, type RouterOptions } from "../../src/route/router.js";
import type { MethodAnswer, RoutingMethod } from "./routing-method.js";

/**
 * (d-g) The router itself over an index, with whatever parameters and reranker the options give it: its inject-or-none
 * rule, which these labelled sets can score (what reaches an agent from an offer needs its choices: bench/agent-reach.ts).
 */
export async function hybridRouter(options: RouterOptions): Promise<RoutingMethod> {
  const router = await createRouter(options);
  return {
    calibrated: true,
    async route(query: string, candidates?: string[]): Promise<MethodAnswer> {
      // The router refuses an empty message (a 400 over HTTP); for a benchmark that is an abstention.
      if (query.trim() === "") return { ranked: [], confidence: 0, decision: "none", selected: [], embedMs: 0 };
      const result = await routeCase(router, query, candidates, EVAL_K, false);
      return { ...scoredAnswer(result), embedMs: result.timing_ms.embed };
    },
    close: () => router.close(),
  };
}
