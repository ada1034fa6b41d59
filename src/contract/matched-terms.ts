import type { RankedSkill } from "./route.js";

/**
 * The keywords and phrases a skill matched, each once: a quoted word is often both ("DESeq2"), and a manifest lists a
 * word's plural beside it so that either form matches ("background", "backgrounds"), shown as the singular.
 */
export function matchedTerms(skill: Pick<RankedSkill, "matched">): string[] {
  const terms = [...new Set([...skill.matched.keywords, ...skill.matched.phrases])];
  const listed = new Set(terms);
  return terms.filter((term) => !singularsOf(term).some((singular) => listed.has(singular)));
}

/** What a word would be if it were a plural: "backgrounds" -> "background", "boxes" -> "box", "queries" -> "query". */
function singularsOf(term: string): string[] {
  return [...(term.endsWith("s") ? [term.slice(0, -1)] : []), ...(term.endsWith("es") ? [term.slice(0, -2)] : []), ...(term.endsWith("ies") ? [`${term.slice(0, -3)}y`] : [])];
}
