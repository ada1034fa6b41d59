import type { RiskFlagWire, SkillSummary } from "../../../contract/skills.js";
import { call } from "./api.js";
import { el } from "./dom.js";

// Flagged skills by name, read from GET /skills whenever the status line is: POST /route's answer does not carry them.
let risksByName = new Map<string, RiskFlagWire[]>();

export async function loadRisks(): Promise<void> {
  try {
    const summaries = await call<SkillSummary[]>("skills", {});
    risksByName = new Map(summaries.filter((summary) => summary.risks.length > 0).map((summary) => [summary.name, summary.risks]));
  } catch {
    risksByName = new Map();
  }
}

/** The mark of a skill flagged at index time, its flags (file, line, rule, what matched) in the tooltip; none for the others. */
export function riskBadge(name: string): HTMLSpanElement | undefined {
  const risks = risksByName.get(name);
  if (!risks) return undefined;
  const badge = el("span", "risky", `risky: ${[...new Set(risks.map((flag) => flag.rule))].join(", ")}`);
  badge.title = risks.map((flag) => `${flag.file}:${flag.line} ${flag.rule}: ${flag.excerpt}`).join("\n");
  return badge;
}
