import type { RiskFlagWire, SkillSummary } from "../../../contract/skills.js";
import { el } from "./dom.js";

// Flagged skills by name, from the skill list the status line reads: POST /route's answer does not carry them.
let risksByName = new Map<string, RiskFlagWire[]>();

/** Keeps the flags of each flagged skill in `summaries`, for the answers shown from now on. */
export function markRisks(summaries: SkillSummary[]): void {
  risksByName = new Map(summaries.filter((summary) => summary.risks.length > 0).map((summary) => [summary.name, summary.risks]));
}

/** The mark of a skill flagged at index time, its flags (file, line, rule, what matched) in the tooltip; none for the others. */
export function riskBadge(name: string): HTMLSpanElement | undefined {
  const risks = risksByName.get(name);
  if (!risks) return undefined;
  const badge = el("span", "risky", `risky: ${[...new Set(risks.map((flag) => flag.rule))].join(", ")}`);
  badge.title = risks.map((flag) => `${flag.file}:${flag.line} ${flag.rule}: ${flag.excerpt}`).join("\n");
  return badge;
}
