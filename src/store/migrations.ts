import path from "node:path";
import type { Database } from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { relativeSourcePath } from "./skill-location.js";

/**
 * Schema versions, applied in order; PRAGMA user_version records how many have run. Never edit a shipped
 * migration: append a new one.
 */
export const MIGRATIONS: ((db: Database) => void)[] = [
  (db) =>
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
      CREATE TABLE roots (position INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE) STRICT;
      CREATE TABLE skills (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('skill', 'tool')),
        format TEXT NOT NULL,
        description TEXT NOT NULL,
        body TEXT NOT NULL,
        injection TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        source_path TEXT NOT NULL,
        root TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        metadata TEXT NOT NULL,
        warnings TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      -- One routing manifest per skill (synthetic queries, keywords, phrases, negatives), made for content_hash.
      CREATE TABLE manifests (
        skill_id TEXT PRIMARY KEY REFERENCES skills(id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        manifest TEXT NOT NULL
      ) STRICT;
      -- LLM manifests by (content hash, prompt version, model), kept across runs so a paid answer is never lost.
      CREATE TABLE manifest_cache (
        content_hash TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        model TEXT NOT NULL,
        manifest TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (content_hash, prompt_version, model)
      ) STRICT;
      -- Every embedded text; its id is the row id of its vector in the sqlite-vec table.
      CREATE TABLE texts (
        id INTEGER PRIMARY KEY,
        skill_id TEXT NOT NULL REFERENCES skills(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        text TEXT NOT NULL
      ) STRICT;
      CREATE INDEX texts_by_skill ON texts(skill_id);
      CREATE TABLE index_runs (
        id INTEGER PRIMARY KEY,
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        summary TEXT NOT NULL
      ) STRICT;
    `),
  (db) =>
    db.exec(`
      -- Requests that no skill should answer, with their vectors: learned by \`router fit\` from labelled
      -- cases whose expected skill is null, and used to recognise such requests at query time.
      CREATE TABLE abstain_examples (
        id INTEGER PRIMARY KEY,
        text TEXT NOT NULL UNIQUE,
        embedder TEXT NOT NULL,
        vector BLOB NOT NULL
      ) STRICT;
    `),
  (db) => {
    // Portable paths: a skill names its root by position and keeps its source path relative to the root's folder
    // (the root itself, or the folder of a root that is a file), so the index can move with its skills.
    db.exec(`
      ALTER TABLE roots ADD COLUMN folder TEXT NOT NULL DEFAULT '';
      ALTER TABLE skills ADD COLUMN root_position INTEGER NOT NULL DEFAULT 0;
    `);
    const roots = db.prepare("SELECT position, path FROM roots").all() as { position: number; path: string }[];
    const skills = db.prepare("SELECT id, root, source_path AS sourcePath FROM skills").all() as { id: string; root: string; sourcePath: string }[];
    const setFolder = db.prepare("UPDATE roots SET folder = ? WHERE position = ?");
    const setSkill = db.prepare("UPDATE skills SET root_position = ?, source_path = ? WHERE id = ?");
    const folderOf = (root: string, sourcePath: string) => (sourcePath.startsWith(root + path.sep) ? root : path.dirname(root));
    for (const root of roots) {
      const sample = skills.find((skill) => skill.root === root.path);
      setFolder.run(sample ? folderOf(root.path, sample.sourcePath) : root.path, root.position);
    }
    for (const skill of skills) {
      const position = roots.find((root) => root.path === skill.root)?.position ?? 0;
      setSkill.run(position, relativeSourcePath(folderOf(skill.root, skill.sourcePath), skill.sourcePath), skill.id);
    }
    db.exec("ALTER TABLE skills DROP COLUMN root");
  },
  // Each manifest records the version of what made it; a manifest from before has none, so the next run makes it again.
  (db) => db.exec("ALTER TABLE manifests ADD COLUMN version TEXT NOT NULL DEFAULT ''"),
  (db) => {
    // Vectors move from the sqlite-vec table to one row per skill, beside its texts: the router reads a candidate's
    // vectors by skill, which sqlite-vec answers one row at a time (15 ms for 370 vectors, against 1.6 ms here), and a
    // row of one 2 KB vector would fill half a page. What routing reads whole (BM25 postings, keyword index,
    // centroids) is written once per index run into routing_data.
    db.exec(`
      -- The vectors of a skill's texts, concatenated in text id order (float32, the index's dimension each).
      CREATE TABLE skill_vectors (skill_id TEXT PRIMARY KEY REFERENCES skills(id) ON DELETE CASCADE, vectors BLOB NOT NULL) STRICT;
      -- What routing reads whole (store/routing-data.ts): per name, a JSON header (part 0) and typed arrays in parts.
      CREATE TABLE routing_data (name TEXT NOT NULL, part INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (name, part)) STRICT;
    `);
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'text_vectors'").get() === undefined) return;
    // The only use left of sqlite-vec: reading and dropping the table of an index written before.
    sqliteVec.load(db);
    db.exec("DELETE FROM texts WHERE id NOT IN (SELECT rowid FROM text_vectors)");
    const insert = db.prepare("INSERT INTO skill_vectors (skill_id, vectors) VALUES (?, ?)");
    const vectorsOf = db.prepare("SELECT v.embedding FROM texts t JOIN text_vectors v ON v.rowid = t.id WHERE t.skill_id = ? ORDER BY t.id").pluck();
    for (const skillId of db.prepare("SELECT DISTINCT skill_id FROM texts").pluck().all() as string[]) {
      insert.run(skillId, Buffer.concat(vectorsOf.all(skillId) as Buffer[]));
    }
    db.exec("DROP TRIGGER IF EXISTS texts_delete_vector; DROP TABLE text_vectors;");
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;
