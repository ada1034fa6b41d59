import type { IndexDatabase } from "../store/database.js";
import { readManifests } from "../store/manifest-rows.js";
import type { StoredManifest } from "../store/records.js";
import { listSkills } from "../store/skill-rows.js";

/** The synthetic request a label-free calibration routes for a skill. */
export interface ProbeRequest {
  skillId: string;
  skill: string;
  /** The middle one of the skill's manifest queries: not the name-like first. */
  query: string;
  /** How many queries the skill has. */
  queries: number;
}

/** Each skill's middle request, in skill order (skills without queries have none). */
export function probeRequests(db: IndexDatabase, manifests: Map<string, StoredManifest> = readManifests(db)): ProbeRequest[] {
  return listSkills(db).flatMap((skill) => {
    const queries = manifests.get(skill.id)?.manifest.queries ?? [];
    const query = queries[Math.floor(queries.length / 2)];
    return query ? [{ skillId: skill.id, skill: skill.name, query, queries: queries.length }] : [];
  });
}
