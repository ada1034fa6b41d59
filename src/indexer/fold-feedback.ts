import { applyFeedback, type FeedbackApplied } from "../feedback/apply-feedback.js";
import type { FeedbackSnapshot, FeedbackStore } from "../feedback/feedback-store.js";
import { refitFromFeedback, type FeedbackRefit } from "../feedback/refit-from-feedback.js";
import type { Embedder } from "../models/embedder.js";
import { queryEncoderOver } from "../models/query-encoder.js";
import type { IndexDatabase } from "../store/database.js";
import { countFeedback, embeddedFeedback, feedbackRevision, replaceFeedbackRows, writeFoldedFeedback, type FoldedFeedback } from "../store/feedback-rows.js";
import { readMeta } from "../store/index-meta.js";

// Requests the refit routes more than once (its folds) are embedded once.
const REFIT_QUERY_CACHE = 1_000;

/** Where an index run's feedback comes from: the index's own rows, or a snapshot of a shared store read before the run. */
export type FeedbackSource = { kind: "index" } | { kind: "store"; where: string; snapshot: FeedbackSnapshot };

export interface FeedbackFold {
  feedback: FeedbackApplied;
  /** The routing parameters refit from the feedback's labels, when there were enough (feedback/refit-from-feedback.ts). */
  refit: FeedbackRefit | undefined;
  /** Which of the store's rows this index version holds (shown by `router doctor` and `router feedback list`). */
  folded: FoldedFeedback;
}

export interface FoldSteps {
  /** Loads the index's embedder when a request has no vector of it (imported rows), or a refit needs one. */
  embedder: () => Promise<Embedder>;
  /** What follows the texts before the refit reads them: routing data, a version, and in an index run the calibration. */
  afterTexts: (textsChanged: boolean) => Promise<void>;
}

/**
 * The one feedback fold of `router index` and `router feedback apply`, inside the caller's transaction: a shared
 * store's rows become the index's, their requests become texts of their skills (feedback/apply-feedback.ts), the
 * caller's `afterTexts` follows, then the decision is refit from the labels when there are enough, and the index
 * records which rows it now holds.
 */
export async function foldFeedback(db: IndexDatabase, source: FeedbackSource, steps: FoldSteps): Promise<FeedbackFold> {
  if (source.kind === "store") replaceFeedbackRows(db, source.snapshot.rows, readMeta(db).embedder ?? "");
  const feedback = await applyFeedback(db, async (texts) => (await steps.embedder()).embed(texts));
  await steps.afterTexts(feedback.skills > 0);
  const refit = await refitFromFeedback(db, async () => queryEncoderOver(knownVectors(db, steps.embedder), REFIT_QUERY_CACHE));
  const folded: FoldedFeedback =
    source.kind === "store"
      ? { store: source.where, revision: source.snapshot.revision, rows: source.snapshot.rows.length, at: new Date().toISOString() }
      : { store: "index", revision: feedbackRevision(db), rows: countFeedback(db), at: new Date().toISOString() };
  writeFoldedFeedback(db, folded);
  return { feedback, refit, folded };
}

/** The snapshot an index run folds: the store's rows read before the run's transaction, or the index's own when it keeps them. */
export async function feedbackSource(store: FeedbackStore | undefined): Promise<FeedbackSource> {
  if (!store || store.kind === "index") return { kind: "index" };
  return { kind: "store", where: store.where, snapshot: await store.snapshot() };
}

/**
 * The index's embedder, answering a request the feedback holds with the vector its replica judged it with: a refit
 * routes every label, and ten thousand of them would otherwise take half a minute to embed again.
 */
function knownVectors(db: IndexDatabase, load: () => Promise<Embedder>): Embedder {
  const meta = readMeta(db);
  const id = meta.embedder ?? "";
  const dimension = meta.dimension ?? 0;
  const known = new Map(
    embeddedFeedback(db)
      .filter((row) => row.embedder === id && row.vector?.length === dimension)
      .map((row) => [row.query, row.vector!]),
  );
  return {
    id,
    dimension,
    async embed(texts) {
      const missing = [...new Set(texts.filter((text) => !known.has(text)))];
      if (missing.length > 0) {
        const vectors = await (await load()).embed(missing);
        missing.forEach((text, at) => known.set(text, vectors[at]!));
      }
      return texts.map((text) => Float32Array.from(known.get(text)!));
    },
    close: async () => undefined,
  };
}
