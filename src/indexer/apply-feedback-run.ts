import type { EmbedderOptions } from "../models/create-embedder.js";
import { createEmbedder } from "../models/create-embedder.js";
import type { Embedder } from "../models/embedder.js";
import { openIndexForWrite } from "../store/database.js";
import { bumpIndexVersion, readMeta } from "../store/index-meta.js";
import { applyFeedback, type FeedbackApplied } from "../feedback/apply-feedback.js";
import { buildRoutingData } from "./build-routing-data.js";
import { queryEncoderOver } from "../models/query-encoder.js";
import { refitFromFeedback, type FeedbackRefit } from "../feedback/refit-from-feedback.js";

// Requests the refit routes more than once (its folds) are embedded once.
const REFIT_QUERY_CACHE = 1_000;

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
  try {
    db.exec("BEGIN IMMEDIATE");
    try {
      const indexEmbedder = readMeta(db).embedder ?? null;
      // Loaded once, only when needed: for requests without a vector of the index's embedder (imported ones), or a refit.
      const loadEmbedder = async () => (embedder ??= await createEmbedder({ ...models, indexEmbedder }));
      const feedback = await applyFeedback(db, async (texts) => (await loadEmbedder()).embed(texts));
      if (feedback.skills > 0) buildRoutingData(db);
      const refit = await refitFromFeedback(db, async () => queryEncoderOver(await loadEmbedder(), REFIT_QUERY_CACHE));
      const indexVersion = feedback.skills > 0 || refit ? bumpIndexVersion(db, new Date().toISOString()) : readMeta(db).indexVersion;
      db.exec("COMMIT");
      return { indexVersion, feedback, refit };
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  } finally {
    await embedder?.close();
    db.close();
  }
}
