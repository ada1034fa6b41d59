import type { EmbeddedFeedback, FeedbackRow, FeedbackSender, NewFeedback } from "../store/feedback-rows.js";

/** What was stored; `duplicate` when the same was already said of the request, so nothing new was learned. */
export interface RecordedFeedback {
  row: FeedbackRow;
  duplicate: boolean;
}

/** A piece of feedback as the router judged it on its index, with who sent it (the client's own name, and who the server knows it as). */
export type JudgedFeedback = NewFeedback & { sender: FeedbackSender };

/** Which rows `forget` removes: these ids, every row teaching a skill something, or all. */
export type ForgetFeedback = { ids: number[] } | { skill: string } | { all: true };

/** Every row an index run folds in, with the store's revision when they were read (what the index then says it holds). */
export interface FeedbackSnapshot {
  rows: EmbeddedFeedback[];
  revision: number;
}

/**
 * Where feedback is kept until `router index` folds it in: the index itself (one machine, the default), or PostgreSQL
 * shared by many replicas (feedback/postgres-feedback-store.ts). Every implementation passes one conformance suite
 * (test/feedback/feedback-store-conformance.ts): one row per request, the caps of store/feedback-limits.ts enforced
 * by the store itself, and a row committed before `record` resolves.
 */
export interface FeedbackStore {
  readonly kind: "index" | "postgres";
  /** Where the rows go, fit for logs and `router doctor` (a password masked). */
  readonly where: string;
  /** Stores a judged row under the caps (FEEDBACK_LIMIT); `at` stands in for the clock (tests of windows). */
  record(feedback: JudgedFeedback, at?: Date): Promise<RecordedFeedback>;
  /** Every row, oldest first; with `skill`, those teaching that skill something (an example of it, or a negative). */
  list(skill?: string): Promise<FeedbackRow[]>;
  /** The number of rows removed. */
  forget(which: ForgetFeedback): Promise<number>;
  /** Every row with its vector, for an index run to fold in. */
  snapshot(): Promise<FeedbackSnapshot>;
  count(): Promise<number>;
  close(): Promise<void>;
}
