import pg from "pg";
import { createError, isRouterError } from "../errors.js";
import { FEEDBACK_LIMITS, limitRefusal, windowStart, type FeedbackCounts, type FeedbackLimits } from "../store/feedback-limits.js";
import { feedbackKey, type EmbeddedFeedback, type FeedbackRow } from "../store/feedback-rows.js";
import { blobOf, floatsOf } from "../store/vectors.js";
import type { FeedbackSnapshot, FeedbackStore, ForgetFeedback, JudgedFeedback, RecordedFeedback } from "./feedback-store.js";
import { migratePostgres } from "./postgres-schema.js";

/** How long a replica waits for the store: well inside a request's 5 s, so /feedback answers 503 with Retry-After, not a timeout. */
export interface PostgresTimeouts {
  connectMs: number;
  queryMs: number;
}

const DEFAULT_TIMEOUTS: PostgresTimeouts = { connectMs: 2_000, queryMs: 3_000 };
// Connections per process: new words take turns on one row anyway, so more would only wait there.
const POOL_SIZE = 4;
// What a client is told to wait before sending again when the store did not answer.
export const STORE_RETRY_AFTER_S = 5;

const COLUMNS =
  'id::int AS id, query, skill, wrong, route_id AS "routeId", client, times, role, note, to_char(created_at AT TIME ZONE \'UTC\', \'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"\') AS "createdAt", to_char(updated_at AT TIME ZONE \'UTC\', \'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"\') AS "updatedAt"';

// The index store's count (store/feedback-rows.ts) in PostgreSQL's words, with the request's row if it has one ($7 its key).
const COUNTS = `
  SELECT count(*)::int AS total,
    (SELECT id::int FROM router_feedback WHERE query_key = $7) AS "existingId",
    (SELECT skill FROM router_feedback WHERE query_key = $7) AS "existingSkill",
    count(*) FILTER (WHERE skill = $1 OR wrong = $1)::int AS "skillRows",
    count(*) FILTER (WHERE (skill = $1 OR wrong = $1) AND client = $2)::int AS "clientSkillRows",
    count(*) FILTER (WHERE (skill = $3 OR wrong = $3) AND sender IS NOT NULL AND updated_at > $6)::int AS "skillRecent",
    min(updated_at) FILTER (WHERE (skill = $3 OR wrong = $3) AND sender IS NOT NULL AND updated_at > $6) AS "skillOldest",
    count(*) FILTER (WHERE (skill = $4 OR wrong = $4) AND sender IS NOT NULL AND updated_at > $6)::int AS "wrongRecent",
    min(updated_at) FILTER (WHERE (skill = $4 OR wrong = $4) AND sender IS NOT NULL AND updated_at > $6) AS "wrongOldest",
    count(*) FILTER (WHERE sender = $5 AND updated_at > $6)::int AS "senderRecent",
    min(updated_at) FILTER (WHERE sender = $5 AND updated_at > $6) AS "senderOldest"
  FROM router_feedback`;

/**
 * Feedback in a PostgreSQL database shared by many replicas (`ROUTER_FEEDBACK_URL=postgres://...`). A row is committed
 * before `record` resolves; the same request again is one row (a unique key on the request), so a retry through
 * another replica stores nothing twice; new words take turns on one row lock, so the caps hold across replicas and
 * revisions commit in order (a snapshot's revision says exactly which rows it holds). A store that does not answer
 * within `timeouts` is FEEDBACK_STORE_UNAVAILABLE (503, Retry-After): nothing was stored, and nothing here waits on
 * the event loop, so routing never slows for it.
 */
export function postgresFeedbackStore(url: string, options: { timeouts?: PostgresTimeouts; limits?: FeedbackLimits } = {}): FeedbackStore {
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const limits = options.limits ?? FEEDBACK_LIMITS;
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: timeouts.connectMs,
    query_timeout: timeouts.queryMs,
    statement_timeout: timeouts.queryMs,
    idleTimeoutMillis: 10_000,
    application_name: "skill-router",
  });
  // An idle connection the server drops (a restart) must not take the process down: the next query connects again.
  pool.on("error", () => undefined);
  const where = maskedUrl(url);
  let migrated: Promise<void> | undefined;

  const withClient = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    try {
      migrated ??= pool.connect().then(async (client) => {
        try {
          await migratePostgres(client);
        } finally {
          client.release();
        }
      });
      await migrated.catch((error: unknown) => {
        migrated = undefined;
        throw error;
      });
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        return await work(client);
      } catch (error) {
        // A connection that failed mid-query (a timeout) may still be in a transaction: it is closed, not handed out again.
        if (!isRouterError(error)) broken = error as Error;
        throw error;
      } finally {
        client.release(broken);
      }
    } catch (error) {
      throw unavailable(error, where);
    }
  };

  const inTransaction = <T>(work: (client: pg.PoolClient) => Promise<T>, begin = "BEGIN"): Promise<T> => withClient((client) => transaction(client, () => work(client), begin));

  return {
    kind: "postgres",
    where,
    // The same word again needs no lock; a new word takes its turn in a transaction of four round trips.
    record: (feedback, at) => withClient(async (client) => (await sayAgain(client, feedback, at)) ?? transaction(client, () => recordNew(client, feedback, at, limits))),
    async list(skill) {
      const rows = await withClient((client) =>
        skill === undefined
          ? client.query<FeedbackRow>(`SELECT ${COLUMNS} FROM router_feedback ORDER BY id`)
          : client.query<FeedbackRow>(`SELECT ${COLUMNS} FROM router_feedback WHERE skill = $1 OR wrong = $1 ORDER BY id`, [skill]),
      );
      return rows.rows;
    },
    async forget(which: ForgetFeedback) {
      const result = await withClient((client) =>
        "all" in which
          ? client.query("DELETE FROM router_feedback")
          : "skill" in which
            ? client.query("DELETE FROM router_feedback WHERE skill = $1 OR wrong = $1", [which.skill])
            : client.query("DELETE FROM router_feedback WHERE id = ANY($1::bigint[])", [which.ids]),
      );
      return result.rowCount ?? 0;
    },
    // One snapshot: the rows and the revision they hold are read in the same repeatable-read transaction.
    snapshot: () =>
      inTransaction(async (client): Promise<FeedbackSnapshot> => {
        const revision = await client.query<{ value: string }>("SELECT value FROM router_feedback_revision");
        const rows = await client.query<FeedbackRow & { sender: string | null; embedder: string | null; vector: Buffer | null }>(
          `SELECT ${COLUMNS}, sender, embedder, vector FROM router_feedback ORDER BY id`,
        );
        return {
          revision: Number(revision.rows[0]?.value ?? 0),
          rows: rows.rows.map((row): EmbeddedFeedback => ({ ...row, vector: row.vector ? floatsOf(row.vector) : null })),
        };
      }, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"),
    async count() {
      const result = await withClient((client) => client.query<{ count: number }>("SELECT count(*)::int AS count FROM router_feedback"));
      return result.rows[0]!.count;
    },
    close: () => pool.end(),
  };
}

async function transaction<T>(client: pg.PoolClient, work: () => Promise<T>, begin = "BEGIN"): Promise<T> {
  await client.query(begin);
  try {
    const result = await work();
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/** The same word again (a retry, another replica, another agent) counts once: the row, or undefined when this word is new. */
async function sayAgain(client: pg.PoolClient, feedback: JudgedFeedback, at: Date | undefined): Promise<RecordedFeedback | undefined> {
  const repeated = await client.query<FeedbackRow>(
    `UPDATE router_feedback SET times = times + 1, updated_at = coalesce($3::timestamptz, now()) WHERE query_key = $1 AND skill IS NOT DISTINCT FROM $2 RETURNING ${COLUMNS}`,
    [feedbackKey(feedback.query), feedback.skill, at ?? null],
  );
  return repeated.rows[0] ? { row: repeated.rows[0], duplicate: true } : undefined;
}

/**
 * A new word, inside the caller's transaction: the revision row's lock first, so the counts are read after every
 * earlier writer committed (the caps hold across replicas), then the row. Few round trips hold the lock.
 */
async function recordNew(client: pg.PoolClient, feedback: JudgedFeedback, at: Date | undefined, limits: FeedbackLimits): Promise<RecordedFeedback> {
  const key = feedbackKey(feedback.query);
  const locked = (await client.query<{ value: string; now: Date }>("UPDATE router_feedback_revision SET value = value + 1 RETURNING value, now() AS now")).rows[0]!;
  const clock = at ?? locked.now;
  const counted = (await client.query(COUNTS, [feedback.skill ?? feedback.wrong, feedback.client, feedback.skill, feedback.wrong, feedback.sender, windowStart(clock, limits), key])).rows[0] as Record<
    string,
    unknown
  >;
  const existingId = counted["existingId"] as number | null;
  // Another writer said the same word while this one waited for the lock.
  if (existingId !== null && counted["existingSkill"] === feedback.skill) return (await sayAgain(client, feedback, at))!;
  const refused = limitRefusal(countsOf(counted), feedback, clock, existingId === null, limits);
  if (refused) throw refused;
  const vector = feedback.vector ? blobOf(feedback.vector) : null;
  const values = [
    feedback.query,
    feedback.skill,
    feedback.wrong,
    feedback.routeId,
    feedback.client,
    feedback.sender,
    feedback.role,
    feedback.note,
    feedback.embedder,
    vector,
    Number(locked.value),
    clock,
  ];
  const written =
    existingId !== null
      ? await client.query<FeedbackRow>(
          `UPDATE router_feedback SET query = $1, skill = $2, wrong = $3, route_id = $4, client = $5, sender = $6, role = $7, note = $8, embedder = $9, vector = $10, revision = $11, updated_at = $12, times = 1 WHERE id = $13 RETURNING ${COLUMNS}`,
          [...values, existingId],
        )
      : await client.query<FeedbackRow>(
          `INSERT INTO router_feedback (query, skill, wrong, route_id, client, sender, role, note, embedder, vector, revision, created_at, updated_at, query_key) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13) RETURNING ${COLUMNS}`,
          [...values, key],
        );
  return { row: written.rows[0]!, duplicate: false };
}

function countsOf(row: Record<string, unknown>): FeedbackCounts {
  const time = (value: unknown) => (value instanceof Date ? value.toISOString() : null);
  return {
    total: row["total"] as number,
    skillRows: row["skillRows"] as number,
    clientSkillRows: row["clientSkillRows"] as number,
    skillRecent: row["skillRecent"] as number,
    skillOldest: time(row["skillOldest"]),
    wrongRecent: row["wrongRecent"] as number,
    wrongOldest: time(row["wrongOldest"]),
    senderRecent: row["senderRecent"] as number,
    senderOldest: time(row["senderOldest"]),
  };
}

/** A connection refused, a timeout, a server shutting down or out of connections: 503 with Retry-After; anything else is a fault of ours. */
function unavailable(error: unknown, where: string): unknown {
  if (isRouterError(error)) return error;
  const code = String((error as { code?: unknown }).code ?? "");
  const message = (error as Error).message ?? String(error);
  const transient =
    /^(08|53|57P|40001|40P01|55P03)/.test(code) ||
    /^E(CONNREFUSED|CONNRESET|TIMEDOUT|HOSTUNREACH|NETUNREACH|PIPE|NOTFOUND|AI_AGAIN)$/.test(code) ||
    /timeout|terminated|Connection ended/i.test(message);
  if (!transient) return error;
  return createError("FEEDBACK_STORE_UNAVAILABLE", `The feedback store at ${where} did not answer (${message}); nothing was stored: send it again in ${STORE_RETRY_AFTER_S} s`, {
    store: where,
    retryAfterSeconds: STORE_RETRY_AFTER_S,
  });
}

/** The URL with its password replaced, for logs and `router doctor`. */
export function maskedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "********";
    return parsed.toString();
  } catch {
    return "postgres://(unreadable URL)";
  }
}
