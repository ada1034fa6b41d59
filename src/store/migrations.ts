import type { Database } from "better-sqlite3";

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
];

export const SCHEMA_VERSION = MIGRATIONS.length;
