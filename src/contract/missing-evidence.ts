import type { RouteResult } from "./route.js";

/**
 * Why the best skill was not evidence enough (reason `no_evidence`), in the figures a person can check: its BM25, or
 * its nearest query's similarity when no word matched, against the floor that requests whose skill is absent reach.
 */
export function missingEvidence(result: Pick<RouteResult, "skills" | "evidence_floor">): string {
  const best = result.skills[0];
  const floor = result.evidence_floor;
  if (!best || !floor) return "nothing matches it more than requests no skill fits do";
  const { signals } = best;
  if (signals.bm25 === 0 && signals.keyword_hits + signals.phrase_hits === 0 && signals.q2q_max < floor.q2q_max) {
    return `no word of it matches ${best.name}, whose nearest query is at similarity ${signals.q2q_max.toFixed(2)}, under the ${floor.q2q_max.toFixed(2)} that requests no skill fits reach on this index`;
  }
  return `BM25 ${signals.bm25.toFixed(2)} for ${best.name}, under the ${floor.bm25.toFixed(2)} that requests no skill fits reach on this index`;
}

/** Why an allowed skill was refused (reason `not_retrieved`): only the allow-list put it forward. */
export function notRetrieved(result: Pick<RouteResult, "skills">): string {
  return `the retrievers do not find ${result.skills[0]?.name ?? "the best allowed skill"} for this request in the whole index, only among the allowed skills`;
}

/** Why the best skill was refused as a near miss (reason `near_miss`): its manifest names a request like this one as not its own. */
export function nearMissNamed(result: Pick<RouteResult, "skills">): string {
  const best = result.skills[0];
  return best?.negative
    ? `${best.name}'s manifest says "${best.negative}" is not for it, and that holds more of this request's words than any request it is for`
    : "the best skill's manifest names this request as not its own";
}
