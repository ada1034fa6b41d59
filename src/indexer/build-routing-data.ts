import { normalise } from "../models/vector-math.js";
import type { IndexDatabase } from "../store/database.js";
import { readManifests } from "../store/manifest-rows.js";
import { readMeta } from "../store/index-meta.js";
import { denseData } from "../store/dense-data.js";
import { lexicalData } from "../store/lexical-data.js";
import { allSkillVectors, countVectors } from "../store/vectors.js";
import { signCodes } from "../models/sign-codes.js";
import { buildLexicalTables } from "./lexical-tables.js";

// Enough of a body for its overview and first sections; the rest adds noise more than matches.
const BODY_START_CHARS = 4_000;

/**
 * Writes what routing reads whole for the index as it now is: BM25F postings and the keyword index over each skill's
 * name, description, body start and manifest, each skill's centroid and its number of queries, all in name order.
 * `router index` calls it inside its transaction, so a version is never served without the data made for it.
 */
export function buildRoutingData(db: IndexDatabase): void {
  const rows = db.prepare(`SELECT id, name, description, CASE kind WHEN 'skill' THEN substr(body, 1, ${BODY_START_CHARS}) ELSE '' END AS bodyStart FROM skills ORDER BY name`).all() as {
    id: string;
    name: string;
    description: string;
    bodyStart: string;
  }[];
  const manifests = readManifests(db);
  lexicalData.write(db, { arrays: buildLexicalTables(rows.map((row) => ({ ...row, manifest: manifests.get(row.id)?.manifest }))), values: {} });

  const dimension = readMeta(db).dimension ?? 0;
  const rowOf = new Map(rows.map((row, index) => [row.id, index]));
  const centroids = new Float32Array(rows.length * dimension);
  // A skill's texts are its description, its queries, then its negatives: the count of queries tells each text's kind without reading the texts.
  const queryCounts = new Uint32Array(rows.length);
  for (const { skillId, kinds, vectors } of allSkillVectors(db, dimension)) {
    // The mean of the description and query vectors (negatives are what a skill is not), normalised.
    const row = rowOf.get(skillId)!;
    queryCounts[row] = kinds.filter((kind) => kind === "query").length;
    const start = row * dimension;
    const centroid = centroids.subarray(start, start + dimension);
    kinds.forEach((kind, position) => {
      if (kind !== "negative") for (let i = 0; i < dimension; i++) centroid[i]! += vectors[position * dimension + i]!;
    });
    normalise(centroid);
  }
  denseData.write(db, {
    arrays: { centroids, codes: signCodes(centroids, rows.length, dimension), queryCounts },
    values: { names: rows.map((row) => row.name), textCount: countVectors(db) },
  });
}

/** Whether the index holds routing data in the format this release reads (an older release wrote another, or none). */
export function hasCurrentRoutingData(db: IndexDatabase): boolean {
  return lexicalData.isCurrent(db) && denseData.isCurrent(db);
}
