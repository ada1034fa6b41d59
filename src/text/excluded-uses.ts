import { cueClauses } from "./cue-clauses.js";

// What a skill's own text says it is not for: "Do not use for Vercel or Cloudflare Pages delivery, ...", "不适用于 ...".
// Those words point away from the skill, so they are no evidence for it: routing's positive texts leave them out.

/** The cues skill authors write before what a skill is not for, in the languages real skills use. */
export const EXCLUSION_CUES = [
  String.raw`\b(?:do not use|don't use|not for|not intended for|not meant for|not recommended for|not needed for|not required for|never use|avoid using|should not be used|isn't for|is not for|not suitable for|out of scope)\b(?: (?:this|the) (?:skill|tool)| it)?(?: (?:for|when|if|to))?`,
  String.raw`\b(?:no usar|no utilizar|no lo uses|no la uses|no es para)\b(?: (?:para|cuando))?`,
  // "不要求" is "does not require", not an exclusion.
  "(?:不要用于|不要(?!求)|不适用于?|不用于|请勿用于|请勿|勿用于|不应用于|사용하지 마)",
];

const EXCLUSION = new RegExp(EXCLUSION_CUES.join("|"), "gi");
// "For tracking implementation, see analytics-tracking": that work belongs to another skill.
const REFERRAL = /(?<=^|[.!?。！？]\s+|\n)for [^.!?。！？\n]+?,\s*(?:see|use)\s/gi;
// An exclusion runs to the end of its sentence: its list of what the skill is not for is all one clause.
const SENTENCE_END = /[.!?](?=\s|$)|[。！？\n]/;

/** The text without its exclusions: each runs from its cue to the end of its sentence. */
export function withoutExclusions(text: string): string {
  const spans = cueClauses(text, [EXCLUSION, REFERRAL], SENTENCE_END);
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let kept = "";
  let from = 0;
  for (const [start, end] of spans) {
    if (start > from) kept += text.slice(from, start);
    // The sentence's own full stop goes with it.
    from = Math.max(from, end + 1);
  }
  return `${kept}${text.slice(from)}`.replace(/[ \t]{2,}/g, " ").trim();
}
