import { normalise } from "../models/vector-math.js";
import type { IndexDatabase } from "../store/database.js";
import { readManifests } from "../store/manifest-rows.js";
import { readMeta } from "../store/index-meta.js";
import { denseData } from "../store/dense-data.js";
import { lexicalData } from "../store/lexical-data.js";
import { allSkillVectors, countVectors, type TextKind } from "../store/vectors.js";
import { signCodes } from "../models/sign-codes.js";
import { buildLexicalTables } from "./lexical-tables.js";

const CENTROID_KINDS = new Set<TextKind>(["description", "query", "usage"]);
// Enough of a body for its overview and first sections; the rest adds noise more than matches.
const BODY_START_CHARS = 4_000;

/**
 * Writes what routing reads whole for the index as it now is: BM25F postings and the keyword index over each skill's
 * name, description, body start, manifest and agreed requests from use, each skill's centroid and how many texts of
 * each kind it has, all in name order.
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
  // Requests confirmed from use that agree with another are read like the manifest's own queries.
  const usage = new Map<string, string[]>();
  for (const { skillId, text } of db.prepare("SELECT skill_id AS skillId, text FROM texts WHERE kind = 'usage' ORDER BY id").all() as { skillId: string; text: string }[]) {
    usage.set(skillId, [...(usage.get(skillId) ?? []), text]);
  }
  const sources = rows.map((row) => ({ ...row, manifest: manifests.get(row.id)?.manifest, usage: usage.get(row.id) ?? [] }));
  lexicalData.write(db, { arrays: buildLexicalTables(sources), values: {} });

  const dimension = readMeta(db).dimension ?? 0;
  const rowOf = new Map(rows.map((row, index) => [row.id, index]));
  const centroids = new Float32Array(rows.length * dimension);
  // How many texts of each kind: the query path tells a text's kind from its position, without reading the texts.
  const counts = { query: new Uint32Array(rows.length), usage: new Uint32Array(rows.length), "usage-lone": new Uint32Array(rows.length), negative: new Uint32Array(rows.length) };
  for (const { skillId, kinds, vectors } of allSkillVectors(db, dimension)) {
    // The mean of the description, query and agreed usage vectors (negatives are what a skill is not; a lone request from use is not yet trusted), normalised.
    const row = rowOf.get(skillId)!;
    for (const kind of kinds) if (kind in counts) counts[kind as keyof typeof counts][row]!++;
    const start = row * dimension;
    const centroid = centroids.subarray(start, start + dimension);
    kinds.forEach((kind, position) => {
      if (CENTROID_KINDS.has(kind)) for (let i = 0; i < dimension; i++) centroid[i]! += vectors[position * dimension + i]!;
    });
    normalise(centroid);
  }
  denseData.write(db, {
    arrays: {
      centroids,
      codes: signCodes(centroids, rows.length, dimension),
      queryCounts: counts.query,
      usageCounts: Uint32Array.from(counts.usage, (agreed, row) => agreed + counts["usage-lone"][row]!),
      loneCounts: counts["usage-lone"],
      negativeCounts: counts.negative,
    },
    values: { names: rows.map((row) => row.name), textCount: countVectors(db) },
  });
}

/** Whether the index holds routing data in the format this release reads (an older release wrote another, or none). */
export function hasCurrentRoutingData(db: IndexDatabase): boolean {
  return lexicalData.isCurrent(db) && denseData.isCurrent(db);
}
