import type { OfferedSkill } from "./route.js";
import { riskNotice } from "./risk-warnings.js";

/** Agents show a skill's description cut at this many characters (Claude Code does): an offer shows no more. */
export const OFFER_DESCRIPTION_CHARS = 1_024;

/** A skill's description as an offer shows it. */
export function offerDescription(description: string): string {
  return Array.from(description).length <= OFFER_DESCRIPTION_CHARS ? description : Array.from(description).slice(0, OFFER_DESCRIPTION_CHARS).join("");
}

/** A skill's line in an offer: what `router index` counts the tokens of. */
export function offerLine(name: string, description: string): string {
  return `- ${name}: ${offerDescription(description)}`;
}

/**
 * An offer as an agent reads it: why it gets a list, each skill's line (a flagged one's warning under it), and how to
 * load one; `howToLoad` names the integration's way ("with the Skill tool", "with read_skill").
 */
export function offerText(skills: Pick<OfferedSkill, "name" | "description" | "risks">[], howToLoad: string): string {
  const lines = skills.flatMap((skill) => {
    const line = offerLine(skill.name, skill.description);
    return skill.risks.length > 0
      ? [
          line,
          `  ${riskNotice(
            skill.name,
            skill.risks.map((risk) => risk.rule),
          )}`,
        ]
      : [line];
  });
  return [
    "skill-router found these installed skills for this request but is not sure which one fits:",
    ...lines,
    `If one of them fits the request, load it ${howToLoad} before answering; if none fits, load none and answer as usual.`,
  ].join("\n");
}
