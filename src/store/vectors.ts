import type { IndexDatabase } from "./database.js";
import { readMeta, writeMetaValue } from "./index-meta.js";

/** Kinds of embedded text; negatives are scored as a penalty, never as positive evidence. */
export type TextKind = "query" | "description" | "negative";

export interface SkillText {
  kind: TextKind;
  text: string;
}

export interface EmbeddedText extends SkillText {
  vector: Float32Array;
}

/** Every stored vector, loaded for in-memory scoring: row i of `matrix` belongs to `skillIds[i]`. */
export interface VectorSet {
  dimension: number;
  skillIds: string[];
  kinds: TextKind[];
  texts: string[];
  matrix: Float32Array;
}

const VECTOR_TABLE = "text_vectors";

/** What made an index's vectors: they mix with another's only when all four are the same. */
export interface EmbedderIdentity {
  id: string;
  dimension: number;
  /** The embedding code's version ("" when the embedder does not say). */
  version: string;
  /** sha256 of the model files loaded ("" when the embedder does not say). */
  modelFiles: string;
}

/** True when the index holds vectors of another embedder, embedding code or model files (or none): every skill must be embedded again. */
export function needsFullEmbed(db: IndexDatabase, embedder: EmbedderIdentity): boolean {
  const meta = readMeta(db);
  return (
    meta.embedder !== embedder.id ||
    meta.dimension !== embedder.dimension ||
    (meta.embedderVersion ?? "") !== embedder.version ||
    (meta.modelFiles ?? "") !== embedder.modelFiles ||
    !hasVectorTable(db)
  );
}

/**
 * Makes the sqlite-vec table match the embedder. A different embedder drops every text and vector, so
 * vectors of two models never mix. Call inside the run's transaction.
 */
export function prepareVectorTable(db: IndexDatabase, embedder: EmbedderIdentity): void {
  if (!needsFullEmbed(db, embedder)) return;
  // The trigger goes first: left in place, it would look for vectors in the dropped table while texts are deleted.
  db.exec("DROP TRIGGER IF EXISTS texts_delete_vector");
  db.exec(`DROP TABLE IF EXISTS ${VECTOR_TABLE}`);
  db.exec("DELETE FROM texts");
  db.exec(`CREATE VIRTUAL TABLE ${VECTOR_TABLE} USING vec0(embedding float[${embedder.dimension}])`);
  // Deleting a text (directly or through a skill's cascade) deletes its vector: the two never drift apart.
  db.exec(`CREATE TRIGGER texts_delete_vector AFTER DELETE ON texts BEGIN DELETE FROM ${VECTOR_TABLE} WHERE rowid = old.id; END`);
  writeMetaValue(db, "embedder", embedder.id);
  writeMetaValue(db, "dimension", String(embedder.dimension));
  writeMetaValue(db, "embedder_version", embedder.version);
  writeMetaValue(db, "model_files", embedder.modelFiles);
}

/** Replaces all texts and vectors of one skill. */
export function replaceSkillTexts(db: IndexDatabase, skillId: string, texts: EmbeddedText[]): void {
  db.prepare("DELETE FROM texts WHERE skill_id = ?").run(skillId);
  const insertText = db.prepare("INSERT INTO texts (skill_id, kind, text) VALUES (?, ?, ?)");
  const insertVector = db.prepare(`INSERT INTO ${VECTOR_TABLE} (rowid, embedding) VALUES (?, ?)`);
  for (const text of texts) {
    const { lastInsertRowid } = insertText.run(skillId, text.kind, text.text);
    insertVector.run(BigInt(lastInsertRowid), Buffer.from(text.vector.buffer, text.vector.byteOffset, text.vector.byteLength));
  }
}

/** Loads every vector in row order of the texts table. */
export function readVectors(db: IndexDatabase): VectorSet {
  const dimension = readMeta(db).dimension ?? 0;
  if (!hasVectorTable(db) || dimension === 0) return { dimension, skillIds: [], kinds: [], texts: [], matrix: new Float32Array(0) };
  const rows = db.prepare(`SELECT t.skill_id AS skillId, t.kind, t.text, v.embedding FROM texts t JOIN ${VECTOR_TABLE} v ON v.rowid = t.id ORDER BY t.id`).all() as {
    skillId: string;
    kind: TextKind;
    text: string;
    embedding: Buffer;
  }[];
  const matrix = new Float32Array(rows.length * dimension);
  rows.forEach((row, index) => matrix.set(new Float32Array(row.embedding.buffer, row.embedding.byteOffset, dimension), index * dimension));
  return { dimension, skillIds: rows.map((row) => row.skillId), kinds: rows.map((row) => row.kind), texts: rows.map((row) => row.text), matrix };
}

export function countTexts(db: IndexDatabase): number {
  return (db.prepare("SELECT count(*) AS n FROM texts").get() as { n: number }).n;
}

export function countVectors(db: IndexDatabase): number {
  return hasVectorTable(db) ? (db.prepare(`SELECT count(*) AS n FROM ${VECTOR_TABLE}`).get() as { n: number }).n : 0;
}

function hasVectorTable(db: IndexDatabase): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(VECTOR_TABLE) !== undefined;
}
