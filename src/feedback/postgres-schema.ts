import type { PoolClient } from "pg";
import { createError } from "../errors.js";

// The store's tables carry a prefix, so a database shared with other applications keeps them apart.
const COMPONENT = "skill-router feedback";

/**
 * The feedback store's schema changes, applied in order: MIGRATIONS[i] takes the store from version i to i + 1, which
 * `router_schema_versions` records. Never edit a shipped migration: append a new one.
 */
const MIGRATIONS: string[] = [
  // 1: one row per request as the index keeps it (store/feedback-rows.ts), with who sent it and the revision that
  // last changed its word; the one-row revision table serialises new words, so revisions commit in order.
  `
  CREATE TABLE router_feedback (
    id bigserial PRIMARY KEY,
    query text NOT NULL,
    query_key text NOT NULL UNIQUE,
    skill text,
    wrong text,
    route_id text,
    client text NOT NULL,
    sender text,
    times integer NOT NULL DEFAULT 1,
    role text NOT NULL,
    note text NOT NULL DEFAULT '',
    embedder text,
    vector bytea,
    revision bigint NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  );
  CREATE INDEX router_feedback_by_skill ON router_feedback (skill, updated_at);
  CREATE INDEX router_feedback_by_wrong ON router_feedback (wrong, updated_at);
  CREATE INDEX router_feedback_by_sender ON router_feedback (sender, updated_at);
  CREATE TABLE router_feedback_revision (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), value bigint NOT NULL);
  INSERT INTO router_feedback_revision (value) VALUES (0);
  `,
];

export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the store's schema to this release's version in one transaction; replicas starting together take turns on an
 * advisory lock, so each migration runs once. A store written by a newer release is refused (FEEDBACK_STORE_TOO_NEW).
 */
export async function migratePostgres(client: PoolClient): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [COMPONENT]);
    await client.query("CREATE TABLE IF NOT EXISTS router_schema_versions (component text PRIMARY KEY, version integer NOT NULL)");
    const found = await client.query<{ version: number }>("SELECT version FROM router_schema_versions WHERE component = $1", [COMPONENT]);
    const version = found.rows[0]?.version ?? 0;
    if (version > MIGRATIONS.length) {
      throw createError("FEEDBACK_STORE_TOO_NEW", `The feedback store's schema is at version ${version}, newer than this skill-router's ${MIGRATIONS.length}: upgrade it`, {
        version,
        supported: MIGRATIONS.length,
      });
    }
    for (const migration of MIGRATIONS.slice(version)) await client.query(migration);
    await client.query("INSERT INTO router_schema_versions (component, version) VALUES ($1, $2) ON CONFLICT (component) DO UPDATE SET version = excluded.version", [COMPONENT, MIGRATIONS.length]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
