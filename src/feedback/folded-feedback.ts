import { openIndexForRead } from "../store/database.js";
import { readFoldedFeedback, type FoldedFeedback } from "../store/feedback-rows.js";

/** What the index file's current version holds of its feedback store (`router doctor`, `router feedback list`); undefined when it has folded none in or cannot be read. */
export function foldedFeedbackOf(file: string): FoldedFeedback | undefined {
  try {
    const db = openIndexForRead(file);
    try {
      return readFoldedFeedback(db);
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}
