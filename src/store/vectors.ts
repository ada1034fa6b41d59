import type { IndexDatabase } from "./database.js";
import { readMeta, writeMetaValue } from "./index-meta.js";

/**
 * Kinds of embedded text; negatives are scored as a penalty, never as positive evidence. A skill's texts are stored in
 * the order TEXT_KINDS gives: requests confirmed from use (`usage`, or `usage-lone` while no other confirmed request
 * agrees with them) follow its manifest queries, and requests it was wrongly injected for (`usage-negative`) its negatives.
 */
export const TEXT_KINDS = ["description", "query", "usage", "usage-lone", "negative", "usage-negative"] as const;
export type TextKind = (typeof TEXT_KINDS)[number];

export interface SkillText {
  kind: TextKind;
  text: string;
}

export interface EmbeddedText extends SkillText {
  vector: Float32Array;
}

/** What made an index's vectors: they mix with another's only when all five are the same. */
export interface EmbedderIdentity {
  id: string;
  dimension: number;
  /** The embedding code's version ("" when the embedder does not say). */
  version: string;
  /** sha256 of the model files loaded ("" when the embedder does not say). */
  modelFiles: string;
  /** The version of the texts embedded per skill: another release may embed other texts for the same skill. */
  texts: string;
}

/** True when the index holds vectors of another embedder, embedding code, model files or texts (or none): every skill must be embedded again. */
export function needsFullEmbed(db: IndexDatabase, embedder: EmbedderIdentity): boolean {
  const meta = readMeta(db);
  return (
    meta.embedder !== embedder.id ||
    meta.dimension !== embedder.dimension ||
    (meta.embedderVersion ?? "") !== embedder.version ||
    (meta.modelFiles ?? "") !== embedder.modelFiles ||
    (meta.textsVersion ?? "") !== embedder.texts
  );
}

/** Makes the stored vectors match the embedder: another one drops every text and vector, so two models' vectors never mix. Call inside the run's transaction. */
export function prepareVectorTable(db: IndexDatabase, embedder: EmbedderIdentity): void {
  if (!needsFullEmbed(db, embedder)) return;
  db.exec("DELETE FROM texts; DELETE FROM skill_vectors;");
  writeMetaValue(db, "embedder", embedder.id);
  writeMetaValue(db, "dimension", String(embedder.dimension));
  writeMetaValue(db, "embedder_version", embedder.version);
  writeMetaValue(db, "model_files", embedder.modelFiles);
  writeMetaValue(db, "texts_version", embedder.texts);
}

/** Replaces all texts and vectors of one skill: the texts in order, their vectors in one row, in the same order. */
export function replaceSkillTexts(db: IndexDatabase, skillId: string, texts: EmbeddedText[]): void {
  db.prepare("DELETE FROM texts WHERE skill_id = ?").run(skillId);
  const insert = db.prepare("INSERT INTO texts (skill_id, kind, text) VALUES (?, ?, ?)");
  for (const text of texts) insert.run(skillId, text.kind, text.text);
  const vectors = Buffer.concat(texts.map((text) => blobOf(text.vector)));
  db.prepare("INSERT INTO skill_vectors (skill_id, vectors) VALUES (?, ?) ON CONFLICT (skill_id) DO UPDATE SET vectors = excluded.vectors").run(skillId, vectors);
}

/** A reader of some skills' vectors: each skill's texts' vectors end to end, in the order they were written (description, queries, negatives). */
export function skillVectorReader(db: IndexDatabase): (skillIds: string[]) => Map<string, Float32Array> {
  const select = db.prepare("SELECT skill_id AS skillId, vectors FROM skill_vectors WHERE skill_id IN (SELECT value FROM json_each(?))");
  return (skillIds) => new Map((select.all(JSON.stringify(skillIds)) as { skillId: string; vectors: Buffer }[]).map((row) => [row.skillId, floatsOf(row.vectors)]));
}

/** One skill's texts with their vectors, in order (a calibration holds one of them out). */
export function readSkillTexts(db: IndexDatabase, skillId: string, dimension: number): EmbeddedText[] {
  const texts = db.prepare("SELECT kind, text FROM texts WHERE skill_id = ? ORDER BY id").all(skillId) as SkillText[];
  const vectors = skillVectorReader(db)([skillId]).get(skillId) ?? new Float32Array(0);
  return texts.map((text, position) => ({ ...text, vector: vectors.slice(position * dimension, (position + 1) * dimension) }));
}

/** A reader of one skill's text strings, in the order of its vectors (routing reads only the shown candidates'). */
export function skillTextStrings(db: IndexDatabase): (skillId: string) => string[] {
  const select = db.prepare("SELECT text FROM texts WHERE skill_id = ? ORDER BY id").pluck();
  return (skillId) => select.all(skillId) as string[];
}

/** Skills that hold requests from use among their texts (kinds usage, usage-lone, usage-negative). */
export function skillsWithUsageTexts(db: IndexDatabase): { id: string; name: string }[] {
  return db.prepare("SELECT DISTINCT s.id, s.name FROM texts t JOIN skills s ON s.id = t.skill_id WHERE t.kind LIKE 'usage%'").all() as { id: string; name: string }[];
}

/** A vector as a blob column stores it: a view of its bytes, no copy. */
export function blobOf(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** A blob column's floats. better-sqlite3 gives each blob a buffer of its own, so a view of it is safe; copying cost a tenth of a ms per read of 40 skills. */
export function floatsOf(blob: Buffer): Float32Array {
  return blob.byteOffset % 4 === 0 ? new Float32Array(blob.buffer, blob.byteOffset, blob.length / 4) : new Float32Array(Uint8Array.from(blob).buffer);
}

/** Every vector of the index, a skill at a time (index time: centroids); the vectors are views valid until the next step. */
export function* allSkillVectors(db: IndexDatabase, dimension: number): Generator<{ skillId: string; kinds: TextKind[]; vectors: Float32Array }> {
  const kindsOf = db.prepare("SELECT kind FROM texts WHERE skill_id = ? ORDER BY id").pluck();
  for (const row of db.prepare("SELECT skill_id AS skillId, vectors FROM skill_vectors").iterate() as Iterable<{ skillId: string; vectors: Buffer }>) {
    const bytes = Uint8Array.from(row.vectors);
    yield { skillId: row.skillId, kinds: kindsOf.all(row.skillId) as TextKind[], vectors: new Float32Array(bytes.buffer, 0, Math.floor(bytes.length / 4 / dimension) * dimension) };
  }
}

export function countTexts(db: IndexDatabase): number {
  return (db.prepare("SELECT count(*) AS n FROM texts").get() as { n: number }).n;
}

/** Stored vectors: 4 bytes per value, `dimension` values each (length() reads no blob content). */
export function countVectors(db: IndexDatabase): number {
  const dimension = readMeta(db).dimension ?? 0;
  if (dimension === 0) return 0;
  return (db.prepare("SELECT coalesce(sum(length(vectors)), 0) AS bytes FROM skill_vectors").get() as { bytes: number }).bytes / 4 / dimension;
}
