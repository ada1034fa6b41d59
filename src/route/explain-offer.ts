import { offerDescription, offerLine, offerText } from "../contract/offer-text.js";
import type { Offer } from "../contract/route.js";
import { countTokens } from "../text/token-count.js";
import { round, routeRisks } from "./explain.js";
import type { RouteModel } from "./route-model.js";
import type { ScoredCandidate } from "./score.js";
import type { Snapshot } from "./snapshot.js";

/** How the HTTP answer's text says to load a skill: each integration names its own way (the hook the Skill tool, MCP read_skill). */
const LOAD_WITH_YOUR_TOOL = "with your skill-loading tool";

// Tokens of each skill's offer line, per index version: a skill's line is counted once, when first offered.
const lineTokens = new WeakMap<RouteModel, Map<number, number>>();

/** Tokens a skill's line adds to an offer. */
export function offerLineTokens(model: RouteModel, skill: number): number {
  let counted = lineTokens.get(model);
  if (!counted) lineTokens.set(model, (counted = new Map()));
  let tokens = counted.get(skill);
  if (tokens === undefined) {
    const { name, description } = model.skills[skill]!;
    counted.set(skill, (tokens = countTokens(offerLine(name, description))));
  }
  return tokens;
}

/** The offer of the named skills, in their ranked order: each with its description as agents show it, its confidence and its flags. */
export function explainOffer({ model }: Snapshot, ranked: ScoredCandidate[], names: string[]): Offer {
  const skills = names.map((name) => {
    const item = ranked.find((candidate) => model.skills[candidate.evidence.skill]!.name === name)!;
    const skill = model.skills[item.evidence.skill]!;
    return {
      name,
      kind: skill.kind,
      description: offerDescription(skill.description),
      confidence: round(item.confidence),
      tokens: skill.tokens,
      risks: routeRisks(model, item.evidence.skill),
    };
  });
  const text = offerText(skills, LOAD_WITH_YOUR_TOOL);
  return { skills, holds_right_skill: null, text, tokens: countTokens(text) };
}
