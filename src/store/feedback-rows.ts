import { createError } from "../errors.js";
import type { IndexDatabase } from "./database.js";
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

/** A row with the request's vector, embedded by `embedder` when it was given (null for rows imported without one). */
export interface EmbeddedFeedback extends FeedbackRow {
  embedder: string | null;
  vector: Float32Array | null;
}

export type NewFeedback = Pick<FeedbackRow, "query" | "skill" | "wrong" | "routeId" | "client" | "role" | "note"> & { embedder: string | null; vector: Float32Array | null };

/** Feedback kept per index, per skill, and per client and skill: one client cannot make one skill take over. */
export const FEEDBACK_LIMITS = { total: 20_000, perSkill: 1_000, perClientSkill: 200 } as const;

/** One row per request: the same words with another case or spacing are the same request. */
function feedbackKey(query: string): string {
  return query.trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * Stores what was said of a request (one row per request: a new word replaces the old one, the same word again counts
 * once). Refused with FEEDBACK_LIMIT when the index, the skill, or this client's rows of the skill are full.
 */
export function saveFeedback(db: IndexDatabase, feedback: NewFeedback, now = new Date().toISOString()): { row: FeedbackRow; duplicate: boolean } {
  return db.transaction(() => {
    const key = feedbackKey(feedback.query);
    const existing = db.prepare("SELECT id, skill FROM feedback WHERE query_key = ?").get(key) as { id: number; skill: string | null } | undefined;
    if (existing && existing.skill === feedback.skill) {
      db.prepare("UPDATE feedback SET times = times + 1, updated_at = ? WHERE id = ?").run(now, existing.id);
      return { row: readFeedback(db, existing.id)!, duplicate: true };
    }
    if (!existing) checkLimits(db, feedback);
    const vector = feedback.vector ? blobOf(feedback.vector) : null;
    const values = [feedback.query, feedback.skill, feedback.wrong, feedback.routeId, feedback.client, feedback.role, feedback.note, feedback.embedder, vector];
    if (existing) {
      db.prepare("UPDATE feedback SET query = ?, skill = ?, wrong = ?, route_id = ?, client = ?, role = ?, note = ?, embedder = ?, vector = ?, times = 1, updated_at = ? WHERE id = ?").run(
        ...values,
        now,
        existing.id,
      );
    }
    const id = existing
      ? existing.id
      : Number(
          db
            .prepare("INSERT INTO feedback (query, query_key, skill, wrong, route_id, client, role, note, embedder, vector, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .run(feedback.query, key, ...values.slice(1), now, now).lastInsertRowid,
        );
    return { row: readFeedback(db, id)!, duplicate: false };
  })();
}

function checkLimits(db: IndexDatabase, feedback: NewFeedback): void {
  const count = (where: string, ...values: unknown[]) =>
    db
      .prepare(`SELECT count(*) FROM feedback ${where}`)
      .pluck()
      .get(...values) as number;
  const full = (what: string, limit: number) =>
    createError("FEEDBACK_LIMIT", `${what} already holds ${limit} pieces of feedback: review them with \`router feedback list\` and remove some with \`router feedback forget\``, { limit });
  if (count("") >= FEEDBACK_LIMITS.total) throw full("The index", FEEDBACK_LIMITS.total);
  const skill = feedback.skill ?? feedback.wrong;
  if (skill === null) return;
  if (count("WHERE skill = ? OR wrong = ?", skill, skill) >= FEEDBACK_LIMITS.perSkill) throw full(`Skill "${skill}"`, FEEDBACK_LIMITS.perSkill);
  if (count("WHERE (skill = ? OR wrong = ?) AND client = ?", skill, skill, feedback.client) >= FEEDBACK_LIMITS.perClientSkill) {
    throw full(`Client "${feedback.client}" on skill "${skill}"`, FEEDBACK_LIMITS.perClientSkill);
  }
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
  const rows = db.prepare(`SELECT ${COLUMNS}, embedder, vector FROM feedback ORDER BY id`).all() as (FeedbackRow & { embedder: string | null; vector: Buffer | null })[];
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

export function countFeedback(db: IndexDatabase): number {
  return db.prepare("SELECT count(*) FROM feedback").pluck().get() as number;
}
