import type { EmbedderOptions } from "../models/create-embedder.js";
import { createEmbedder } from "../models/create-embedder.js";
import type { Embedder } from "../models/embedder.js";
import { openIndexForWrite } from "../store/database.js";
import { bumpIndexVersion, readMeta } from "../store/index-meta.js";
import { applyFeedback, type FeedbackApplied } from "../indexer/apply-feedback.js";
import { buildRoutingData } from "../indexer/build-routing-data.js";
import { createQueryEncoder, type QueryEncoder } from "../models/query-encoder.js";
import { refitFromFeedback, type FeedbackRefit } from "./refit-from-feedback.js";

export interface FeedbackRun {
  indexVersion: number;
  feedback: FeedbackApplied;
  /** The routing parameters refit from the feedback's labels, when there were enough (feedback/refit-from-feedback.ts). */
  refit: FeedbackRefit | undefined;
}

/**
 * `router feedback apply`: folds the index's feedback into its texts and routing data, and refits the decision from its
 * labels when there are enough, in one transaction, as a new index version when anything changed (a server watching
 * the file reloads it). No skill is read again: what the last `router index` measured still describes the skills.
 */
export async function applyFeedbackRun(file: string, models: EmbedderOptions = {}): Promise<FeedbackRun> {
  const db = openIndexForWrite(file);
  let embedder: Embedder | undefined;
  let encoder: QueryEncoder | undefined;
  try {
    db.exec("BEGIN IMMEDIATE");
    try {
      // Only requests without a vector of the index's embedder (imported ones) need the model.
      const feedback = await applyFeedback(db, async (texts) => {
        embedder ??= await createEmbedder({ ...models, indexEmbedder: readMeta(db).embedder ?? null });
        return embedder.embed(texts);
      });
      if (feedback.skills > 0) buildRoutingData(db);
      const refit = await refitFromFeedback(db, async () => (encoder ??= await createQueryEncoder({ ...models, indexEmbedder: readMeta(db).embedder ?? null })));
      const indexVersion = feedback.skills > 0 || refit ? bumpIndexVersion(db, new Date().toISOString()) : readMeta(db).indexVersion;
      db.exec("COMMIT");
      return { indexVersion, feedback, refit };
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  } finally {
    await embedder?.close();
    await encoder?.close();
    db.close();
  }
}
