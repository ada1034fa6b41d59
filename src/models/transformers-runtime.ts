import type { ModelDtype } from "./model-catalogue.js";
import { disableOnnxTelemetry } from "./onnx-telemetry.js";

type Transformers = typeof import("@huggingface/transformers");

let loaded: Promise<Transformers> | undefined;

/**
 * transformers.js, imported on first use (the offline default never pays for it) and set to read model files
 * only from disk: nothing is fetched while a model loads. Pulling is `router models pull`'s job. Its warnings and
 * onnxruntime's are kept off stderr (a CLI's stderr is for its own messages; `router hook` runs in an agent's prompt).
 */
export function loadTransformers(): Promise<Transformers> {
  disableOnnxTelemetry();
  loaded ??= import("@huggingface/transformers").then((transformers) => {
    // Also sets onnxruntime's own log level, before its first session.
    transformers.env.logLevel = transformers.LogLevel.ERROR;
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
