import type { Database } from "better-sqlite3";
import type { SkillMetadata } from "./records.js";
import { skillTextHash, type SkillText } from "./skill-text.js";

/**
 * The oldest schema an index may have, and the one a new index starts at. Indexes before it kept their vectors in a
 * sqlite-vec table, which this release cannot read (docs/models.md, Vectors): they are built again, not migrated.
 */
export const BASELINE_VERSION = 5;

/** Creates the tables of schema BASELINE_VERSION in an empty database. */
export function createBaselineSchema(db: Database): void {
  db.exec(`
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
    -- The paths given to \`router index\`, by position; a skill's source path is relative to its root's folder.
    CREATE TABLE roots (position INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, folder TEXT NOT NULL DEFAULT '') STRICT;
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
      content_hash TEXT NOT NULL,
      metadata TEXT NOT NULL,
      warnings TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      root_position INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    -- One routing manifest per skill (synthetic queries, keywords, phrases, negatives), made for content_hash by the
    -- version of its source: another version means it is made again.
    CREATE TABLE manifests (
      skill_id TEXT PRIMARY KEY REFERENCES skills(id) ON DELETE CASCADE,
      source TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      manifest TEXT NOT NULL,
      version TEXT NOT NULL DEFAULT ''
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
    -- Every embedded text; a skill's vectors are in skill_vectors, in text id order.
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
    -- Requests that no skill should answer, with their vectors: learned by \`router fit\` from labelled
    -- cases whose expected skill is null, and used to recognise such requests at query time.
    CREATE TABLE abstain_examples (
      id INTEGER PRIMARY KEY,
      text TEXT NOT NULL UNIQUE,
      embedder TEXT NOT NULL,
      vector BLOB NOT NULL
    ) STRICT;
    -- The vectors of a skill's texts, concatenated in text id order (float32, the index's dimension each): the router
    -- reads a candidate's vectors by skill, one row (docs/models.md, Vectors).
    CREATE TABLE skill_vectors (skill_id TEXT PRIMARY KEY REFERENCES skills(id) ON DELETE CASCADE, vectors BLOB NOT NULL) STRICT;
    -- What routing reads whole (store/routing-data.ts): per name, a JSON header (part 0) and typed arrays in parts.
    CREATE TABLE routing_data (name TEXT NOT NULL, part INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (name, part)) STRICT;
  `);
}

/**
 * Schema changes after the baseline, applied in order: MIGRATIONS[i] takes an index from BASELINE_VERSION + i to the
 * next version, which PRAGMA user_version records. Never edit a shipped migration: append a new one.
 */
export const MIGRATIONS: ((db: Database) => void)[] = [
  // What the risky-skill rules flagged in each skill (a JSON list of rule, line, excerpt), so every listing can show it.
  (db) => db.exec("ALTER TABLE skills ADD COLUMN risks TEXT NOT NULL DEFAULT '[]'"),
  // 7: what users and agents said of answers (store/feedback-rows.ts): one row per request, the latest word winning.
  (db) =>
    db.exec(`
      CREATE TABLE feedback (
        id INTEGER PRIMARY KEY,
        query TEXT NOT NULL,
        query_key TEXT NOT NULL UNIQUE,
        skill TEXT,
        wrong TEXT,
        route_id TEXT,
        client TEXT NOT NULL,
        times INTEGER NOT NULL DEFAULT 1,
        role TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        embedder TEXT,
        vector BLOB,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX feedback_by_skill ON feedback(skill);
      CREATE INDEX feedback_by_wrong ON feedback(wrong);
    `),
  // 8: the key each skill's risk flags were made under (skills/risk-key.ts), so a run reuses them for an unchanged skill.
  (db) => db.exec("ALTER TABLE skills ADD COLUMN risk_key TEXT NOT NULL DEFAULT ''"),
  // 9: paid manifests are keyed on the skill's own text (store/skill-text.ts), not on its content hash, which holds the
  // router's risk flags; rows are re-keyed from the skills they were made for (cache rows of skills no longer indexed
  // keep their old key, which no skill text matches).
  (db) => {
    db.exec("ALTER TABLE manifests RENAME COLUMN content_hash TO text_hash; ALTER TABLE manifest_cache RENAME COLUMN content_hash TO text_hash");
    const manifest = db.prepare("UPDATE manifests SET text_hash = ? WHERE skill_id = ?");
    const cached = db.prepare("UPDATE manifest_cache SET text_hash = ? WHERE text_hash = ?");
    const skills = db.prepare("SELECT id, kind, name, description, body, metadata, content_hash AS contentHash FROM skills").all() as (Omit<SkillText, "metadata"> & {
      id: string;
      metadata: string;
      contentHash: string;
    })[];
    for (const skill of skills) {
      const textHash = skillTextHash({ ...skill, metadata: JSON.parse(skill.metadata) as SkillMetadata });
      manifest.run(textHash, skill.id);
      cached.run(textHash, skill.contentHash);
    }
  },
  // 10: who the server knew each piece of feedback's sender as (store/feedback-limits.ts): a window per sender holds
  // whatever client name it gives. Rows from before are the operator's (null), as nothing bounded them. Indexed, as a
  // new word counts the sender's rows in its window.
  (db) => db.exec("ALTER TABLE feedback ADD COLUMN sender TEXT; CREATE INDEX feedback_by_sender ON feedback(sender, updated_at)"),
];

export const SCHEMA_VERSION = BASELINE_VERSION + MIGRATIONS.length;
