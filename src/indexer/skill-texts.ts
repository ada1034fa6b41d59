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
