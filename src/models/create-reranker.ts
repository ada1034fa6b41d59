import { createCrossEncoderReranker } from "./cross-encoder-reranker.js";
import type { RerankerLoad, RerankerOptions } from "./embedder.js";
import { loadOrExplain } from "./load-or-explain.js";
import { inspectModelFiles, MODEL_CATALOGUE } from "./model-catalogue.js";
import { modelSettings } from "./model-settings.js";
import { startRerankerWorker } from "./model-worker-client.js";

const CROSS_ENCODER = MODEL_CATALOGUE.reranker;

/**
 * The cross-encoder reranker for the query path, its inference in a worker thread so the server keeps
 * answering while it scores. Never throws for missing or broken files: it reports them as the reason.
 */
export async function createReranker(options: RerankerOptions = {}): Promise<RerankerLoad> {
  return startRerankerWorker(options);
}

/** The same reranker run on the calling thread (what the worker itself runs). */
export async function loadRerankerInProcess(options: RerankerOptions = {}): Promise<RerankerLoad> {
  const settings = modelSettings(options);
  const files = inspectModelFiles(settings.modelsDir, CROSS_ENCODER, settings.dtype);
  if (!files.dtype) return { status: "unavailable", reason: `files missing in ${files.folder}: ${files.missing.join(", ")} (run \`router models pull reranker\`)` };
  const id = `${CROSS_ENCODER.idPrefix}-${files.dtype}`;
  try {
    const reranker = await loadOrExplain(files.folder, () => createCrossEncoderReranker({ id, folder: files.folder, dtype: files.dtype!, threads: settings.threads }));
    return { status: "ready", reranker };
  } catch (error) {
    return { status: "unavailable", reason: error instanceof Error ? error.message : String(error) };
  }
}
