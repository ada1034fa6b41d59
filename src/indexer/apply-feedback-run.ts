import type { EmbedderOptions } from "../models/create-embedder.js";
import { createEmbedder } from "../models/create-embedder.js";
import type { Embedder } from "../models/embedder.js";
import { openIndexForWrite } from "../store/database.js";
import { bumpIndexVersion, readMeta } from "../store/index-meta.js";
import { applyFeedback, type FeedbackApplied } from "./apply-feedback.js";
import { buildRoutingData } from "./build-routing-data.js";

export interface FeedbackRun {
  indexVersion: number;
  feedback: FeedbackApplied;
}

/**
 * `router feedback apply`: folds the index's feedback into its texts and routing data in one transaction, as a new
 * index version when anything changed (a server watching the file reloads it). No skill is read again, nothing is
 * measured again: what the run of `router index` measured still describes the skills.
 */
export async function applyFeedbackRun(file: string, models: EmbedderOptions = {}): Promise<FeedbackRun> {
  const db = openIndexForWrite(file);
  let embedder: Embedder | undefined;
  try {
    db.exec("BEGIN IMMEDIATE");
    try {
      // Only requests without a vector of the index's embedder (imported ones) need the model.
      const feedback = await applyFeedback(db, async (texts) => {
        embedder ??= await createEmbedder({ ...models, indexEmbedder: readMeta(db).embedder ?? null });
        return embedder.embed(texts);
      });
      const indexVersion = feedback.skills > 0 ? bumpIndexVersion(db, new Date().toISOString()) : readMeta(db).indexVersion;
      if (feedback.skills > 0) buildRoutingData(db);
      db.exec("COMMIT");
      return { indexVersion, feedback };
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  } finally {
    await embedder?.close();
    db.close();
  }
}
