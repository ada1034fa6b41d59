import type { Manifest, SkillKind } from "../store/records.js";
import { readableName } from "../text/readable-name.js";
import type { IndexDatabase } from "../store/database.js";
import { readMeta } from "../store/index-meta.js";
import { readAbstainExamples, type AbstainExamples } from "../store/abstain-examples.js";
import { readManifests } from "../store/manifest-rows.js";
import { readVectors } from "../store/vectors.js";
import { normalise } from "../models/vector-math.js";

/** One routable skill as held in memory; rows point into the shared vector matrix. */
export interface SkillEntry {
  id: string;
  name: string;
  kind: SkillKind;
  description: string;
  /** The start of a skill's instructions (empty for tools): the words its users type are often only there. */
  bodyStart: string;
  tokens: number;
  descriptionRow: number;
  queryRows: number[];
  negativeRows: number[];
  manifest: Manifest | undefined;
  /** Heuristic manifests are drawn from the description, not written as user requests: similarities run lower. */
  heuristicManifest: boolean;
}

/** Everything the query path reads, loaded once per index version; never mutated after loading. */
export interface RouteModel {
  indexVersion: number;
  embedder: string | null;
  dimension: number;
  skills: SkillEntry[];
  byName: Map<string, number>;
  /** Row-major unit vectors of every embedded text. */
  matrix: Float32Array;
  /** The text of each matrix row (for explanations). */
  texts: string[];
  /** One unit vector per skill (mean of its queries and description): the coarse stage of dense search. */
  centroids: Float32Array;
  /** Requests no skill should answer (learned by `router fit`). */
  abstain: AbstainExamples;
}

interface SkillRow {
  id: string;
  name: string;
  kind: SkillKind;
  description: string;
  bodyStart: string;
  tokens: number;
}

// Enough of a body for its overview and first sections; the rest adds memory more than matches.
const BODY_START_CHARS = 4_000;

export function loadRouteModel(db: IndexDatabase): RouteModel {
  // One read transaction: skills, manifests and vectors all come from the same index version.
  return db
    .transaction(() => {
      const meta = readMeta(db);
      const rows = db
        .prepare(`SELECT id, name, kind, description, CASE kind WHEN 'skill' THEN substr(body, 1, ${BODY_START_CHARS}) ELSE '' END AS bodyStart, tokens FROM skills ORDER BY name`)
        .all() as SkillRow[];
      const manifests = readManifests(db);
      const vectors = readVectors(db);
      const skills: SkillEntry[] = rows.map((row) => ({
        ...row,
        descriptionRow: -1,
        queryRows: [],
        negativeRows: [],
        manifest: manifests.get(row.id)?.manifest,
        heuristicManifest: manifests.get(row.id)?.source === "heuristic",
      }));
      const position = new Map(skills.map((skill, index) => [skill.id, index]));
      vectors.skillIds.forEach((skillId, row) => {
        const skill = skills[position.get(skillId) ?? -1];
        if (!skill) return;
        const kind = vectors.kinds[row];
        if (kind === "description") skill.descriptionRow = row;
        else if (kind === "query") skill.queryRows.push(row);
        else skill.negativeRows.push(row);
      });
      return {
        indexVersion: meta.indexVersion,
        embedder: meta.embedder ?? null,
        dimension: vectors.dimension,
        skills,
        byName: new Map(skills.map((skill, index) => [skill.name, index])),
        matrix: vectors.matrix,
        texts: vectors.texts,
        centroids: centroidsOf(skills, vectors.matrix, vectors.dimension),
        abstain: readAbstainExamples(db, meta.embedder ?? null, vectors.dimension),
      };
    })
    .deferred();
}

function centroidsOf(skills: SkillEntry[], matrix: Float32Array, dimension: number): Float32Array {
  const centroids = new Float32Array(skills.length * dimension);
  skills.forEach((skill, index) => {
    const rows = skill.descriptionRow >= 0 ? [skill.descriptionRow, ...skill.queryRows] : skill.queryRows;
    const centroid = centroids.subarray(index * dimension, (index + 1) * dimension);
    for (const row of rows) {
      for (let i = 0; i < dimension; i++) centroid[i]! += matrix[row * dimension + i]!;
    }
    normalise(centroid);
  });
  return centroids;
}

/** The fields BM25 indexes for a skill. */
export function searchableFields(skill: SkillEntry): { name: string; description: string; body: string; keywords: string; phrases: string; queries: string } {
  return {
    name: readableName(skill.name),
    description: skill.description,
    body: skill.bodyStart,
    keywords: skill.manifest?.keywords.join(" ") ?? "",
    phrases: skill.manifest?.phrases.join(" ") ?? "",
    queries: skill.manifest?.queries.join(" ") ?? "",
  };
}
