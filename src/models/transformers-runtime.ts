import type { ModelDtype } from "./model-catalogue.js";

type Transformers = typeof import("@huggingface/transformers");

let loaded: Promise<Transformers> | undefined;

/**
 * transformers.js, imported on first use (the offline default never pays for it) and set to read model files
 * only from disk: nothing is fetched while a model loads. Pulling is `router models pull`'s job.
 */
export function loadTransformers(): Promise<Transformers> {
  loaded ??= import("@huggingface/transformers").then((transformers) => {
    transformers.env.allowRemoteModels = false;
    transformers.env.allowLocalModels = true;
    transformers.env.useFSCache = false;
    return transformers;
  });
  return loaded;
}

/** Options for `from_pretrained` on a model folder given by absolute path (never a hub id). */
export function localModelOptions(dtype: ModelDtype, threads: number) {
  return {
    local_files_only: true,
    device: "cpu" as const,
    dtype,
    session_options: { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: "all" as const, logSeverityLevel: 3 as const },
  };
}
