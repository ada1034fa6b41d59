import type { RouteModel, TermSet } from "./route-model.js";
import type { Evidence } from "./signals.js";

/**
 * The skill's negative that holds more of the request's words than any of its queries does: a near miss its manifest
 * names, word for word (which an embedder that cannot read the request still lets us see). Its position among the
 * skill's texts, or null. A heuristic manifest's negatives do not count (they are fragments of the description's
 * exclusions, "Word documents", not requests); requests the skill was wrongly injected for always do.
 */
export function namedNearMiss(model: RouteModel, candidate: Pick<Evidence, "skill" | "heuristicManifest">, requestTerms: string[]): number | null {
  const wanted = new Set(requestTerms);
  if (wanted.size === 0) return null;
  const held = (text: TermSet) => {
    let count = 0;
    for (const term of wanted) if (text.terms.has(term)) count++;
    return count / wanted.size;
  };
  const { queries, negatives } = model.textTerms(candidate.skill);
  let best = queries.reduce((most, query) => Math.max(most, held(query)), 0);
  let found: number | null = null;
  for (const negative of negatives) {
    if (candidate.heuristicManifest && negative.use !== "negative") continue;
    const share = held(negative);
    if (share > best) [best, found] = [share, negative.position];
  }
  return found;
}
