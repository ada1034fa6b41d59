import { fileURLToPath } from "node:url";
import { createError } from "../errors.js";
import { CATALOGUE_EMBEDDERS, MODEL_DTYPES, type EmbedderModelName, type ModelDtype } from "./model-catalogue.js";

export type EmbedderChoice = "auto" | "offline" | EmbedderModelName;
const EMBEDDER_CHOICES: EmbedderChoice[] = ["auto", "offline", ...CATALOGUE_EMBEDDERS.map((model) => model.name)];

/** Where models live and how they may be loaded; every field has an environment default. */
export interface ModelSettings {
  /** ROUTER_MODELS_DIR; default: the models/ folder of this installation, wherever the command runs from. */
  modelsDir: string;
  /** ROUTER_EMBEDDER; `auto` takes MiniLM, then the multilingual MiniLM, when its files are in modelsDir, else the offline default. */
  embedder: EmbedderChoice;
  /** ROUTER_MODEL_DTYPE; default: q8 when its file is present, else fp32. */
  dtype: ModelDtype | undefined;
  /** ROUTER_ALLOW_REMOTE_MODELS=1: an explicitly chosen model whose files are missing is pulled from the hub. */
  allowRemoteModels: boolean;
  /** ROUTER_MODEL_THREADS; onnxruntime intra-op threads per model (1 measured best on a shared 2-core host). */
  threads: number;
}

export const DEFAULT_MODELS_DIR = fileURLToPath(new URL("../../models", import.meta.url));

export function modelSettings(overrides: Partial<ModelSettings> = {}, env: NodeJS.ProcessEnv = process.env): ModelSettings {
  const dtype = overrides.dtype ?? (env.ROUTER_MODEL_DTYPE || undefined);
  return {
    modelsDir: overrides.modelsDir ?? (env.ROUTER_MODELS_DIR || DEFAULT_MODELS_DIR),
    embedder: oneOf("ROUTER_EMBEDDER", overrides.embedder ?? (env.ROUTER_EMBEDDER || "auto"), EMBEDDER_CHOICES),
    dtype: dtype === undefined ? undefined : oneOf("ROUTER_MODEL_DTYPE", dtype, MODEL_DTYPES),
    allowRemoteModels: overrides.allowRemoteModels ?? ["1", "true", "yes"].includes((env.ROUTER_ALLOW_REMOTE_MODELS ?? "").toLowerCase()),
    threads: positiveInteger("ROUTER_MODEL_THREADS", String(overrides.threads ?? (env.ROUTER_MODEL_THREADS || "1"))),
  };
}

function oneOf<T extends string>(name: string, value: string, allowed: T[]): T {
  if (!(allowed as string[]).includes(value)) throw createError("INVALID_ARGUMENT", `${name} must be one of ${allowed.join(", ")}; got "${value}"`);
  return value as T;
}

function positiveInteger(name: string, value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw createError("INVALID_ARGUMENT", `${name} must be a positive integer; got "${value}"`);
  return parsed;
}
