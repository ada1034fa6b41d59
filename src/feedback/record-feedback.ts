import type { FeedbackEntry, FeedbackRequest, FeedbackResult } from "../contract/feedback.js";
import type { Router } from "../route/router.js";
import type { FeedbackRow, FeedbackSender } from "../store/feedback-rows.js";
import type { FeedbackStore, RecordedFeedback } from "./feedback-store.js";
import { indexFeedbackStore } from "./index-feedback-store.js";

export type { RecordedFeedback } from "./feedback-store.js";

/**
 * Judges a piece of feedback on the router's current index version and stores it in the index file, committed before
 * this resolves (never lost on a crash after). `client` says who said it; `waitMs` is how long a busy index is waited for.
 */
export async function recordFeedback(router: Router, db: string, request: FeedbackRequest, client: string, waitMs: number): Promise<RecordedFeedback> {
  return recordFeedbackIn(indexFeedbackStore(db, { waitMs }), router, request, client, null);
}

/** The same into any store; `sender` is who the server knows the sender as (null: the operator, whom no window bounds). */
export async function recordFeedbackIn(store: FeedbackStore, router: Router, request: FeedbackRequest, client: string, sender: FeedbackSender): Promise<RecordedFeedback> {
  const judged = await router.feedback(request);
  return store.record({ ...judged, client, sender });
}

/** What a server answers for recorded feedback: `applies` says when it takes effect, unless it was said before. */
export function feedbackResult({ row, duplicate }: RecordedFeedback, applies: string): FeedbackResult {
  return { stored: toFeedbackEntry(row), duplicate, applies: duplicate ? "said before: applied with it" : applies };
}

/** A stored row as every way out answers it, in the wire's snake_case. */
export function toFeedbackEntry(row: FeedbackRow): FeedbackEntry {
  return {
    id: row.id,
    query: row.query,
    skill: row.skill,
    wrong: row.wrong,
    role: row.role,
    note: row.note,
    client: row.client,
    times: row.times,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
