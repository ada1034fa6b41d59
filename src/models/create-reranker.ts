import { createCrossEncoderReranker } from "./cross-encoder-reranker.js";
import type { Reranker } from "./embedder.js";
import { loadOrExplain } from "./load-or-explain.js";
import { inspectModelFiles, MODEL_CATALOGUE } from "./model-catalogue.js";
import { modelSettings, type ModelSettings } from "./model-settings.js";
import { startRerankerWorker } from "./model-worker-client.js";

export type RerankerOptions = Partial<Pick<ModelSettings, "modelsDir" | "dtype" | "threads">>;

/** A reranker, or why there is none: callers skip the stage and show "reranker unavailable: <reason>". */
export type RerankerLoad = { status: "ready"; reranker: Reranker } | { status: "unavailable"; reason: string };

const CROSS_ENCODER = MODEL_CATALOGUE.reranker;

/**
 * The cross-encoder reranker for the query path, its inference in a worker thread so the server keeps
 * answering while it scores. Never throws for missing or broken files: it reports them as the reason.
 */
export async function createReranker(options: RerankerOptions = {}): Promise<RerankerLoad> {
  return startRerankerWorker(options);
}

/** A reranker whose worker thread starts on the first `load()`: a router that never reranks never starts it. */
export interface LazyReranker {
  /** Looks for the files and starts the worker the first time; every later call gets that same outcome. */
  load(): Promise<RerankerLoad>;
  /** Whether `load()` has been called (the worker is started, starting, or was found unavailable). */
  readonly started: boolean;
  /** Stops the worker if one was started (after its start finishes); `load()` then answers "unavailable". */
  close(): Promise<void>;
}

export function createLazyReranker(options: RerankerOptions = {}): LazyReranker {
  let loading: Promise<RerankerLoad> | undefined;
  let closed = false;
  return {
    load() {
      if (closed) return Promise.resolve({ status: "unavailable", reason: "reranker closed" });
      return (loading ??= createReranker(options));
    },
    get started() {
      return loading !== undefined;
    },
    async close() {
      closed = true;
      const load = await loading;
      if (load?.status === "ready") await load.reranker.close();
    },
  };
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
