import type { Manifest } from "../expand/manifest.js";
import type { SkillText } from "../store/vectors.js";
import { readableName } from "../text/readable-name.js";
import type { ParsedSkill } from "../skills/types.js";

/**
 * The texts embedded for a skill: its description (query-to-document signal), each synthetic query
 * (query-to-query) and each negative (penalty). Negatives stay a kind of their own.
 */
export function skillTexts(skill: Pick<ParsedSkill, "name" | "description" | "metadata">, manifest: Manifest): SkillText[] {
  const name = readableName(skill.metadata.toolName ?? skill.name);
  const texts: SkillText[] = [{ kind: "description", text: skill.description === "" ? name : `${name}: ${skill.description}` }];
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
