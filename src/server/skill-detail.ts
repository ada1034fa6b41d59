import type { SkillDetail } from "../client/types.js";
import type { Skill } from "../skills/types.js";

/**
 * What GET /skills/{name} and MCP read_skill answer: `body` is exactly what would be injected and `sourcePath` where the
 * skill is served from (store/skill-location.ts); the index's own bookkeeping stays out.
 */
export function skillDetail(skill: Skill): SkillDetail {
  const { injection, root: _root, relativePath: _relative, contentHash: _hash, body: _body, ...rest } = skill;
  return { ...rest, body: injection };
}
