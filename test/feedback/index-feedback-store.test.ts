import path from "node:path";
import { indexFeedbackStore } from "../../src/feedback/index-feedback-store.js";
import { openIndexForWrite } from "../../src/store/database.js";
import { tempDir } from "../helpers/fixtures.js";
import { runFeedbackStoreConformance } from "./feedback-store-conformance.js";

runFeedbackStoreConformance("the index", async (limits) => {
  const file = path.join(tempDir(), "router.db");
  openIndexForWrite(file).close();
  return { store: indexFeedbackStore(file, { waitMs: 5_000, limits }), other: indexFeedbackStore(file, { waitMs: 5_000, limits }) };
});
