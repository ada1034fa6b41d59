import { cueClauses } from "./cue-clauses.js";

// What a request says it does not want: "summarise the incident, but do not package it as a skill", "不使用 Coolify".
// Words in such a span are no evidence for a skill that deals with them (often they point away from it).

// Instructions, not descriptions of a problem: "don't touch the database" excludes it, "the pod doesn't start" does not.
const ENGLISH_CUE = /(?<=^\s*|[,.;:!?(]\s*|\b(?:but|and|please|just)\s+)(?:do not|don't|dont|never)\b|\b(?:without|instead of|rather than|except|no need to|avoid)\b/gi;
// "不要求" ("does not require") names no exclusion.
const CHINESE_CUE = /(?:而不是|不要(?!求)|不用|不需要|无需|不必|别|勿|先不|不[做使涉改动删碰含包打修]|除了)/g;
// A negated span ends at the end of its clause, or where the request turns back ("but", "而是").
const CLAUSE_END = /[,.;:!?，。；：！？、\n]|\b(?:but|then|and then|instead)\b|但|而是|然后/i;

/** The text with every negated span blanked out (its length and the rest kept). */
export function withoutNegatedSpans(text: string): string {
  const spans = cueClauses(text, [ENGLISH_CUE, CHINESE_CUE], CLAUSE_END);
  if (spans.length === 0) return text;
  // Offsets are in UTF-16 units: blank by units (a negated emoji leaves two spaces).
  const units = text.split("");
  for (const [start, end] of spans) for (let at = start; at < end; at++) units[at] = " ";
  return units.join("");
}
