import type { RankedSkill } from "./route.js";
import { baseForm } from "../expand/terms.js";

/**
 * The keywords and phrases a skill matched, each once: a quoted word is often both ("DESeq2"), and the heuristic
 * expander lists a keyword's base form beside it so that either matches ("queries", "query"), shown as the base form.
 */
export function matchedTerms(skill: Pick<RankedSkill, "matched">): string[] {
  const terms = [...new Set([...skill.matched.keywords, ...skill.matched.phrases])];
  const listed = new Set(terms);
  return terms.filter((term) => !listed.has(baseForm(term) ?? ""));
}
