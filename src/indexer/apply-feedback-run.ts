import type { FeedbackApplied } from "../feedback/apply-feedback.js";
import type { FeedbackStore } from "../feedback/feedback-store.js";
import type { FeedbackRefit } from "../feedback/refit-from-feedback.js";
import type { EmbedderOptions } from "../models/create-embedder.js";
import { createEmbedder } from "../models/create-embedder.js";
import type { Embedder } from "../models/embedder.js";
import { openIndexForWrite } from "../store/database.js";
import type { FoldedFeedback } from "../store/feedback-rows.js";
import { bumpIndexVersion, readMeta } from "../store/index-meta.js";
import { buildRoutingData } from "./build-routing-data.js";
import { feedbackSource, foldFeedback } from "./fold-feedback.js";

export interface FeedbackRun {
  indexVersion: number;
  feedback: FeedbackApplied;
  /** The routing parameters refit from the feedback's labels, when there were enough (feedback/refit-from-feedback.ts). */
  refit: FeedbackRefit | undefined;
  /** Which of the store's rows the index now holds. */
  folded: FoldedFeedback;
}

/**
 * `router feedback apply`: folds the feedback (the index's own, or a shared store's) into the index's texts and
 * routing data, and refits the decision from its labels when there are enough, in one transaction, as a new index
 * version when anything changed (a server watching the file reloads it). No skill is read again: what the last
 * `router index` measured still describes the skills.
 */
export async function applyFeedbackRun(file: string, models: EmbedderOptions = {}, store?: FeedbackStore): Promise<FeedbackRun> {
  // A shared store is read before the index's write lock is taken.
  const source = await feedbackSource(store);
  const db = openIndexForWrite(file);
  let embedder: Embedder | undefined;
  try {
    db.exec("BEGIN IMMEDIATE");
    try {
      const indexEmbedder = readMeta(db).embedder ?? null;
      const fold = await foldFeedback(db, source, {
        // Loaded once, only when needed: for requests without a vector of the index's embedder (imported ones), or a refit.
        embedder: async () => (embedder ??= await createEmbedder({ ...models, indexEmbedder })),
        afterTexts: async (textsChanged) => {
          if (textsChanged) buildRoutingData(db);
        },
      });
      const indexVersion = fold.feedback.skills > 0 || fold.refit ? bumpIndexVersion(db, new Date().toISOString()) : readMeta(db).indexVersion;
      db.exec("COMMIT");
      return { indexVersion, ...fold };
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  } finally {
    await embedder?.close();
    db.close();
  }
}
