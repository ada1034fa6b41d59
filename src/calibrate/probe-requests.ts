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
  /** The middle one of its manifest's near misses, when it has two or more (one stays when it is held out). */
  negative?: string;
}

/** Each skill's middle request, in skill order (skills without queries have none). */
export function probeRequests(db: IndexDatabase, manifests: Map<string, StoredManifest> = readManifests(db)): ProbeRequest[] {
  return listSkills(db).flatMap((skill) => {
    const { queries = [], negatives = [] } = manifests.get(skill.id)?.manifest ?? {};
    const query = queries[Math.floor(queries.length / 2)];
    const negative = negatives.length >= 2 ? { negative: negatives[Math.floor(negatives.length / 2)]! } : {};
    return query ? [{ skillId: skill.id, skill: skill.name, query, queries: queries.length, ...negative }] : [];
  });
}
