import type { IndexDatabase } from "./database.js";
import { FEEDBACK_LIMITS, limitRefusal, windowStart, type FeedbackCounts, type FeedbackLimits } from "./feedback-limits.js";
import { readMetaJson, writeMetaJson } from "./index-meta.js";
import { blobOf, floatsOf } from "./vectors.js";

/** What a piece of feedback teaches: an example of its skill, nothing (it contradicts the skill's near misses), or that no skill fits. */
export type FeedbackRole = "example" | "rejected" | "none";

/** One request and what should have been injected for it, as the index keeps it. */
export interface FeedbackRow {
  id: number;
  query: string;
  /** The skill that should have been injected; null when none should. */
  skill: string | null;
  /** The skill the router injected instead, when it was wrong: the request becomes one of its negatives. */
  wrong: string | null;
  routeId: string | null;
  /** Who said so: `cli`, `api`, `mcp`, `claude-code`, ... (a client sending too much of one skill is capped). */
  client: string;
  /** How often the same word was given for the request: a duplicate counts once. */
  times: number;
  role: FeedbackRole;
  /** Why a request was not taken as an example (the near miss it matches), or what it taught. */
  note: string;
  createdAt: string;
  updatedAt: string;
}

/** A row with the request's vector, embedded by `embedder` when it was given (null for rows imported without one), and who sent it. */
export interface EmbeddedFeedback extends FeedbackRow {
  embedder: string | null;
  vector: Float32Array | null;
  sender: FeedbackSender;
}

export type NewFeedback = Pick<FeedbackRow, "query" | "skill" | "wrong" | "routeId" | "client" | "role" | "note"> & { embedder: string | null; vector: Float32Array | null };

/** Who the server knows the sender as (its API key, else its address); null for the operator at the CLI, whom no window bounds. */
export type FeedbackSender = string | null;

export { FEEDBACK_LIMITS };

/** One row per request: the same words with another case or spacing are the same request. */
export function feedbackKey(query: string): string {
  return query.trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * Stores what was said of a request (one row per request: a new word replaces the old one, the same word again counts
 * once). Refused with FEEDBACK_LIMIT when the index, the skill, or this client's rows of the skill are full, or when the
 * skill or the sender took their window's share of new words (store/feedback-limits.ts).
 */
export function saveFeedback(
  db: IndexDatabase,
  feedback: NewFeedback,
  sender: FeedbackSender = null,
  at = new Date(),
  limits: FeedbackLimits = FEEDBACK_LIMITS,
): { row: FeedbackRow; duplicate: boolean } {
  const now = at.toISOString();
  return db.transaction(() => {
    const key = feedbackKey(feedback.query);
    const existing = db.prepare("SELECT id, skill FROM feedback WHERE query_key = ?").get(key) as { id: number; skill: string | null } | undefined;
    if (existing && existing.skill === feedback.skill) {
      db.prepare("UPDATE feedback SET times = times + 1, updated_at = ? WHERE id = ?").run(now, existing.id);
      return { row: readFeedback(db, existing.id)!, duplicate: true };
    }
    const refused = limitRefusal(countFeedbackFor(db, feedback, sender, windowStart(at, limits)), { ...feedback, sender }, at, !existing, limits);
    if (refused) throw refused;
    const vector = feedback.vector ? blobOf(feedback.vector) : null;
    const values = [feedback.query, feedback.skill, feedback.wrong, feedback.routeId, feedback.client, sender, feedback.role, feedback.note, feedback.embedder, vector];
    if (existing) {
      db.prepare("UPDATE feedback SET query = ?, skill = ?, wrong = ?, route_id = ?, client = ?, sender = ?, role = ?, note = ?, embedder = ?, vector = ?, times = 1, updated_at = ? WHERE id = ?").run(
        ...values,
        now,
        existing.id,
      );
    }
    const id = existing
      ? existing.id
      : Number(
          db
            .prepare(
              "INSERT INTO feedback (query, query_key, skill, wrong, route_id, client, sender, role, note, embedder, vector, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .run(feedback.query, key, ...values.slice(1), now, now).lastInsertRowid,
        );
    return { row: readFeedback(db, id)!, duplicate: false };
  })();
}

// A row's time in the window is when its word was last said (a duplicate says it again): a window is never looser for it.
// Only the rows of the skills and the sender concerned are read (by their indexes): a scan of every row, vectors and
// all, cost 13 ms a word at 10,000 rows.
const COUNTS = `
  SELECT (SELECT count(*) FROM feedback) AS total,
    count(*) FILTER (WHERE skill = @checked OR wrong = @checked) AS skillRows,
    count(*) FILTER (WHERE (skill = @checked OR wrong = @checked) AND client = @client) AS clientSkillRows,
    count(*) FILTER (WHERE (skill = @skill OR wrong = @skill) AND sender IS NOT NULL AND updated_at > @since) AS skillRecent,
    min(updated_at) FILTER (WHERE (skill = @skill OR wrong = @skill) AND sender IS NOT NULL AND updated_at > @since) AS skillOldest,
    count(*) FILTER (WHERE (skill = @wrong OR wrong = @wrong) AND sender IS NOT NULL AND updated_at > @since) AS wrongRecent,
    min(updated_at) FILTER (WHERE (skill = @wrong OR wrong = @wrong) AND sender IS NOT NULL AND updated_at > @since) AS wrongOldest,
    count(*) FILTER (WHERE sender = @sender AND updated_at > @since) AS senderRecent,
    min(updated_at) FILTER (WHERE sender = @sender AND updated_at > @since) AS senderOldest
  FROM (
    SELECT id, skill, wrong, client, sender, updated_at FROM feedback WHERE skill IN (@checked, @skill, @wrong)
    UNION SELECT id, skill, wrong, client, sender, updated_at FROM feedback WHERE wrong IN (@checked, @skill, @wrong)
    UNION SELECT id, skill, wrong, client, sender, updated_at FROM feedback WHERE sender = @sender
  )`;

function countFeedbackFor(db: IndexDatabase, feedback: NewFeedback, sender: FeedbackSender, since: Date): FeedbackCounts {
  return db.prepare(COUNTS).get({
    checked: feedback.skill ?? feedback.wrong,
    client: feedback.client,
    skill: feedback.skill,
    wrong: feedback.wrong,
    sender,
    since: since.toISOString(),
  }) as FeedbackCounts;
}

const COLUMNS = "id, query, skill, wrong, route_id AS routeId, client, times, role, note, created_at AS createdAt, updated_at AS updatedAt";

function readFeedback(db: IndexDatabase, id: number): FeedbackRow | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM feedback WHERE id = ?`).get(id) as FeedbackRow | undefined;
}

/** Every row, oldest first; with `skill`, those that teach that skill something (an example of it, or a negative). */
export function listFeedback(db: IndexDatabase, skill?: string): FeedbackRow[] {
  if (skill === undefined) return db.prepare(`SELECT ${COLUMNS} FROM feedback ORDER BY id`).all() as FeedbackRow[];
  return db.prepare(`SELECT ${COLUMNS} FROM feedback WHERE skill = ? OR wrong = ? ORDER BY id`).all(skill, skill) as FeedbackRow[];
}

/** Every row with its vector, for folding into the index. */
export function embeddedFeedback(db: IndexDatabase): EmbeddedFeedback[] {
  const rows = db.prepare(`SELECT ${COLUMNS}, sender, embedder, vector FROM feedback ORDER BY id`).all() as (FeedbackRow & {
    sender: FeedbackSender;
    embedder: string | null;
    vector: Buffer | null;
  })[];
  return rows.map((row) => ({ ...row, vector: row.vector ? floatsOf(row.vector) : null }));
}

/** Stores vectors for rows that had none (imported), or another embedder's. */
export function setFeedbackVectors(db: IndexDatabase, embedder: string, vectors: Map<number, Float32Array>): void {
  const update = db.prepare("UPDATE feedback SET embedder = ?, vector = ? WHERE id = ?");
  for (const [id, vector] of vectors) update.run(embedder, blobOf(vector), id);
}

/** Removes the rows with these ids (all with none given); the number removed. */
export function forgetFeedback(db: IndexDatabase, which: { ids?: number[]; skill?: string; all?: boolean }): number {
  if (which.all) return db.prepare("DELETE FROM feedback").run().changes;
  if (which.skill !== undefined) return db.prepare("DELETE FROM feedback WHERE skill = ? OR wrong = ?").run(which.skill, which.skill).changes;
  const remove = db.prepare("DELETE FROM feedback WHERE id = ?");
  return db.transaction(() => (which.ids ?? []).reduce((removed, id) => removed + remove.run(id).changes, 0))();
}

/**
 * Makes the index's rows those of a shared store (an index run folding PostgreSQL's rows in), inside the caller's
 * transaction. A row's vector of `embedder` the index already holds for the same request is kept when the store's
 * is missing or another embedder's, so a run embeds each request once.
 */
export function replaceFeedbackRows(db: IndexDatabase, rows: EmbeddedFeedback[], embedder: string): void {
  const kept = new Map(
    (db.prepare("SELECT query_key AS key, vector FROM feedback WHERE embedder = ? AND vector IS NOT NULL").all(embedder) as { key: string; vector: Buffer }[]).map((row) => [row.key, row.vector]),
  );
  db.prepare("DELETE FROM feedback").run();
  const insert = db.prepare(
    "INSERT INTO feedback (id, query, query_key, skill, wrong, route_id, client, sender, times, role, note, embedder, vector, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  for (const row of rows) {
    const key = feedbackKey(row.query);
    const own = row.vector && row.embedder === embedder ? blobOf(row.vector) : undefined;
    const vector = own ?? kept.get(key) ?? (row.vector ? blobOf(row.vector) : null);
    const vectorEmbedder = own || !kept.has(key) ? row.embedder : embedder;
    insert.run(row.id, row.query, key, row.skill, row.wrong, row.routeId, row.client, row.sender, row.times, row.role, row.note, vectorEmbedder, vector, row.createdAt, row.updatedAt);
  }
}

/** What an index version holds of a feedback store's rows: which store, up to which of its revisions, how many, when read. */
export interface FoldedFeedback {
  store: string;
  revision: number;
  rows: number;
  at: string;
}

const FOLDED_KEY = "feedback_folded";

export function readFoldedFeedback(db: IndexDatabase): FoldedFeedback | undefined {
  return readMetaJson<FoldedFeedback>(db, FOLDED_KEY);
}

export function writeFoldedFeedback(db: IndexDatabase, folded: FoldedFeedback): void {
  writeMetaJson(db, FOLDED_KEY, folded);
}

/** The highest row id: the index's own revision of its feedback (its rows are folded where they are). */
export function feedbackRevision(db: IndexDatabase): number {
  return (db.prepare("SELECT coalesce(max(id), 0) FROM feedback").pluck().get() as number) ?? 0;
}

export function countFeedback(db: IndexDatabase): number {
  return db.prepare("SELECT count(*) FROM feedback").pluck().get() as number;
}
