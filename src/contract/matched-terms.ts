import type { RankedSkill } from "./route.js";

/** The keywords and phrases a skill matched, each once: a quoted word is often both ("DESeq2"). */
export function matchedTerms(skill: Pick<RankedSkill, "matched">): string[] {
  return [...new Set([...skill.matched.keywords, ...skill.matched.phrases])];
}
