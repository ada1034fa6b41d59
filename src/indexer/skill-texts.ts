import { createHash } from "node:crypto";
import type { Manifest } from "../expand/manifest.js";
import type { SkillText } from "../store/vectors.js";
import { withoutExclusions } from "../text/excluded-uses.js";
import { readableName } from "../text/readable-name.js";
import type { ParsedSkill } from "../skills/types.js";

/**
 * The texts embedded for a skill: its description (query-to-document signal), each synthetic query
 * (query-to-query) and each negative (penalty). Negatives stay a kind of their own.
 */
export function skillTexts(skill: Pick<ParsedSkill, "name" | "description" | "metadata">, manifest: Manifest): SkillText[] {
  const name = readableName(skill.metadata.toolName ?? skill.name);
  // What the description says the skill is not for is no part of its positive text: the negatives hold it.
  const description = withoutExclusions(skill.description);
  const texts: SkillText[] = [{ kind: "description", text: description === "" ? name : `${name}: ${description}` }];
  const seen = new Set<string>();
  for (const [kind, list] of [
    ["query", manifest.queries],
    ["negative", manifest.negatives],
  ] as const) {
    for (const text of list) {
      const key = `${kind}:${text.toLowerCase()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      texts.push({ kind, text });
    }
  }
  return texts;
}

// A skill that takes every path of skillTexts: a tool name, a description with an exclusion, a repeated query, a negative.
const PROBE_SKILL = { name: "probe__get_weather", description: "Forecasts the weather. Do not use for climate statistics, or history.", metadata: { toolName: "get_weather" } };
const PROBE_MANIFEST: Manifest = { queries: ["rain tomorrow?", "Rain tomorrow?"], keywords: [], phrases: [], negatives: ["climate statistics"], negative_constraint: "", category: "" };

/**
 * The version of the texts embedded per skill, as the index records it (meta `texts_version`): a hash of what skillTexts
 * makes of a probe skill. When it changes, every skill is embedded again, with no number to remember to bump.
 */
export function skillTextsVersion(): string {
  return createHash("sha256")
    .update(JSON.stringify(skillTexts(PROBE_SKILL, PROBE_MANIFEST)))
    .digest("hex")
    .slice(0, 16);
}
