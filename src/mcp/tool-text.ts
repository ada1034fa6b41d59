import type { FeedbackResult } from "../contract/feedback.js";
import type { RankedSkill, RouteResult } from "../contract/route.js";
import type { SkillDetail } from "../contract/skills.js";
import { matchedTerms } from "../contract/matched-terms.js";
import { missingEvidence, nearMissNamed, notRetrieved } from "../contract/missing-evidence.js";
import { offerText } from "../contract/offer-text.js";
import { riskNotice } from "../contract/risk-warnings.js";

// The text MCP clients hand the model: short lines that say what to do next and why.

const NONE_REASONS: Record<string, (result: RouteResult) => string> = {
  no_evidence: missingEvidence,
  near_miss: nearMissNamed,
  not_retrieved: notRetrieved,
  below_threshold: (result) => `in scope ${result.in_scope.toFixed(2)} < threshold ${result.threshold.toFixed(2)}`,
  small_margin: (result) => `the top two are too close to call (margin < ${result.min_margin.toFixed(2)})`,
  no_candidates: () => "no skill shares anything with the request",
  empty_index: () => "the index has no skills",
};

export function findSkillText(result: RouteResult): string {
  if (result.decision === "offer" && result.offer) {
    // The choice is the agent's: the list as agents read skills (name and description), then the evidence behind it.
    const lines = [`offer: ${offerText(result.offer.skills, "with read_skill")}`, "", "The router's ranking, for reference:"];
    result.skills.forEach((skill, index) => lines.push(`${index + 1}. ${rankedLine(skill)}`));
    return lines.join("\n");
  }
  const lines =
    result.decision === "inject"
      ? [
          `inject: ${result.selected.join(", ")}${result.invoked ? ` (the request calls ${result.invoked} by name)` : ""}. Read ${result.selected.length > 1 ? "each" : "it"} with read_skill and follow its instructions.`,
        ]
      : [`none: no skill fits this request (${NONE_REASONS[result.reason ?? ""]?.(result) ?? result.reason}).${result.skills.length > 0 ? " Closest:" : ""}`];
  result.skills.forEach((skill, index) => lines.push(`${index + 1}. ${rankedLine(skill)}`));
  return lines.join("\n");
}

function rankedLine(skill: RankedSkill): string {
  const parts = [`${skill.name} [${skill.kind}] confidence ${skill.confidence.toFixed(2)}: ${skill.description}`];
  const matched = matchedTerms(skill);
  if (matched.length > 0) parts.push(`matched: ${matched.join(", ")}`);
  if (skill.nearest_query) parts.push(`like: "${skill.nearest_query}"${skill.nearest_from_use ? " (from use)" : ""}`);
  if (skill.negative) parts.push(`but close to a request it is not for: "${skill.negative}"`);
  parts.push(`${skill.tokens} tokens`);
  if (skill.risks.length > 0)
    parts.push(
      riskNotice(
        skill.name,
        skill.risks.map((risk) => risk.rule),
      ),
    );
  return parts.join(" | ");
}

/** A skill's instructions, a flagged skill's warning first: what it asks for, and that the user must agree. */
export function readSkillText(skill: SkillDetail): string {
  const warning =
    skill.risks.length > 0
      ? `${riskNotice(
          skill.name,
          skill.risks.map((risk) => risk.rule),
        )}\n\n`
      : "";
  return `${warning}${skill.body}\n\n(${skill.kind} ${skill.name}, from ${skill.source_path})`;
}

/** What report_skill stored, in one line: its id, what it taught, and when it takes effect. */
export function feedbackText({ stored, duplicate, applies }: FeedbackResult): string {
  if (duplicate) return `already said (#${stored.id}, ${stored.times} times): ${stored.note}.`;
  return `stored #${stored.id}: ${stored.note}; applies ${applies}.`;
}

/** Names that share a part with the unknown one, so a typo gets a suggestion. */
export function similarNames(name: string, names: string[]): string[] {
  const parts = name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((part) => part.length >= 3);
  return names.filter((candidate) => parts.some((part) => candidate.toLowerCase().includes(part))).slice(0, 5);
}
