import { createError, isRouterError } from "../errors.js";
import { openIndexForRead, type IndexDatabase } from "../store/database.js";
import { countFeedback, embeddedFeedback, feedbackRevision, forgetFeedback, listFeedback, saveFeedback } from "../store/feedback-rows.js";
import type { FeedbackLimits } from "../store/feedback-limits.js";
import { writeWhenFree } from "../store/write-when-free.js";
import type { FeedbackStore, ForgetFeedback } from "./feedback-store.js";

/**
 * The index file keeps its own feedback (one machine, the default): each write waits for the index's write lock up to
 * `waitMs` without blocking the event loop (store/write-when-free.ts), then INDEX_LOCKED. A read-only index (the
 * replicas of docs/operations.md, Scaling out) cannot keep any: FEEDBACK_STORE_READ_ONLY names the setting that can.
 */
export function indexFeedbackStore(file: string, options: { waitMs: number; limits?: FeedbackLimits }): FeedbackStore {
  const reading = <T>(work: (db: IndexDatabase) => T): T => {
    const db = openIndexForRead(file);
    try {
      return work(db);
    } finally {
      db.close();
    }
  };
  const writing = <T>(work: (db: IndexDatabase) => T): Promise<T> => writeWhenFree(file, work, options.waitMs).catch((error: unknown) => Promise.reject(readOnlyStore(error, file)));
  return {
    kind: "index",
    where: file,
    record: (feedback, at) => writing((db) => saveFeedback(db, feedback, feedback.sender, at, options.limits)),
    list: async (skill) => reading((db) => listFeedback(db, skill)),
    forget: (which: ForgetFeedback) => writing((db) => forgetFeedback(db, which)),
    snapshot: async () => reading((db) => ({ rows: embeddedFeedback(db), revision: feedbackRevision(db) })),
    count: async () => reading((db) => countFeedback(db)),
    close: async () => undefined,
  };
}

function readOnlyStore(error: unknown, file: string): unknown {
  if (!isRouterError(error) || error.code !== "INDEX_READ_ONLY") return error;
  return createError(
    "FEEDBACK_STORE_READ_ONLY",
    `${file} is read-only (${error.message}), and feedback is kept in the index unless a store is configured: set ROUTER_FEEDBACK_URL=postgres://... (or feedbackUrl in the config file) on every replica, and \`router index\` folds the store in (docs/operations.md, Scaling out)`,
    { file },
  );
}
