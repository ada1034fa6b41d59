import type { ScoredCandidate } from "./score.js";
import type { Snapshot } from "./snapshot.js";
import type { RankedSkill, RouteRisk } from "../contract/route.js";
import { riskWarning } from "../contract/risk-warnings.js";
import type { RouteModel } from "./route-model.js";

/**
 * One ranked candidate as a person reads it: confidence, every signal, what matched, the nearest example, the negative
 * that fired; and what would be injected, when `bodyOf` is given.
 */
export function explainCandidate(snapshot: Snapshot, item: ScoredCandidate, bodyOf: ((name: string) => string) | undefined): RankedSkill {
  const { model } = snapshot;
  const { evidence } = item;
  const skill = model.skills[evidence.skill]!;
  const ranked: RankedSkill = {
    name: skill.name,
    kind: skill.kind,
    description: skill.description,
    confidence: round(item.confidence),
    share: round(item.share),
    tokens: skill.tokens,
    signals: Object.fromEntries(Object.entries(evidence.signals).map(([key, value]) => [key, round(value)])) as unknown as RankedSkill["signals"],
    matched: evidence.matched,
    nearest_query: evidence.nearestQuery === null ? null : model.textString(evidence.skill, evidence.nearestQuery),
    nearest_from_use: evidence.nearestFromUse,
    from_use: evidence.fromUse,
    negative: nearMissText(snapshot, item),
    risks: routeRisks(model, evidence.skill),
  };
  if (bodyOf) ranked.body = bodyOf(skill.name);
  return ranked;
}

/** The negative that came nearer than the skill's own requests: in meaning (a penalty), else word for word (a refusal). */
function nearMissText({ model }: Snapshot, { evidence, nearMiss }: ScoredCandidate): string | null {
  const position = evidence.negative ?? nearMiss ?? null;
  return position === null ? null : model.textString(evidence.skill, position);
}

/** Four decimals: what a person can compare, and what keeps answers small. */
export function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** A skill's flags as an answer carries them, each with what it asks for. */
export function routeRisks(model: RouteModel, skill: number): RouteRisk[] {
  return (model.risks.get(skill) ?? []).map((flag) => ({ rule: flag.rule, warning: riskWarning(flag.rule), line: flag.line, excerpt: flag.excerpt }));
}
