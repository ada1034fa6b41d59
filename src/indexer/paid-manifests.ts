import type { LoadedSkill } from "../skills/load-skills.js";
import { contentHash } from "../skills/content-hash.js";
import type { IndexedManifest } from "../store/manifest-rows.js";
import type { StoredSkillState } from "../store/skill-rows.js";
import { skillTextHash } from "../store/skill-text.js";

/**
 * An updated skill keeps its imported or LLM-written manifest when its own text is the one the manifest was made
 * from: what changed is what the router derives (risk flags, their rules, how it reads the file), and a user's LLM
 * bill must not depend on that. Free manifests (heuristic, file, example queries) are made again.
 */
export function keepsPaidManifest(skill: LoadedSkill, stored: IndexedManifest | undefined): boolean {
  return stored !== undefined && (stored.source === "import" || stored.source === "llm") && stored.textHash === skillTextHash(skill);
}

/**
 * By skill id, the content hashes an import line exported by an older release (custom_id `name@<content hash>`) may
 * name while the skill's text is unchanged: the one the index holds from before this run's flags, and the one
 * without flags (the skill's current one the import checks itself).
 */
export function formerContentHashes(skills: LoadedSkill[], stored: Map<string, StoredSkillState>, manifests: Map<string, IndexedManifest>): Map<string, string[]> {
  const former = new Map<string, string[]>();
  for (const skill of skills) {
    const previous = stored.get(skill.name);
    const hashes = [
      ...(previous && manifests.get(previous.id)?.textHash === skillTextHash(skill) ? [previous.contentHash] : []),
      ...(skill.risks.length > 0 ? [contentHash({ ...skill, risks: [] })] : []),
    ];
    if (hashes.length > 0) former.set(skill.id, hashes);
  }
  return former;
}
