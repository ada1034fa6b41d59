import { fileURLToPath } from "node:url";
import { createError } from "../errors.js";
import type { HubOptions } from "./hub-client.js";
import { CATALOGUE_EMBEDDERS, MODEL_DTYPES, type EmbedderModelName, type ModelDtype } from "./model-catalogue.js";

export type EmbedderChoice = "auto" | "offline" | EmbedderModelName;
export const EMBEDDER_CHOICES: EmbedderChoice[] = ["auto", "offline", ...CATALOGUE_EMBEDDERS.map((model) => model.name)];

/** Where models live and how they may be loaded (src/config reads them from flags, the environment and the config file). */
export interface ModelSettings {
  /** Default: the models/ folder of this installation, wherever the command runs from. */
  modelsDir: string;
  /** `auto` takes MiniLM, then the multilingual MiniLM, when its files are in modelsDir, else the offline default. */
  embedder: EmbedderChoice;
  /** Default: q8 when its file is present, else fp32. */
  dtype: ModelDtype | undefined;
  /** An explicitly chosen model whose files are missing is pulled from the hub. */
  allowRemoteModels: boolean;
  /** onnxruntime intra-op threads per model (1 measured best on a shared 2-core host). */
  threads: number;
  /** Where a model pulled on first use comes from. */
  hub: HubOptions;
}

export const DEFAULT_MODELS_DIR = fileURLToPath(new URL("../../models", import.meta.url));

export const DEFAULT_MODEL_SETTINGS: ModelSettings = { modelsDir: DEFAULT_MODELS_DIR, embedder: "auto", dtype: undefined, allowRemoteModels: false, threads: 1, hub: {} };

/** The settings given, the defaults for the rest. */
export function modelSettings(given: Partial<ModelSettings> = {}): ModelSettings {
  const settings = { ...DEFAULT_MODEL_SETTINGS, ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) };
  // Checked again here: a library caller's options reach this without src/config's checks.
  if (!EMBEDDER_CHOICES.includes(settings.embedder)) throw invalid(`embedder must be one of ${EMBEDDER_CHOICES.join(", ")}; got "${settings.embedder}"`);
  if (settings.dtype !== undefined && !MODEL_DTYPES.includes(settings.dtype)) throw invalid(`dtype must be one of ${MODEL_DTYPES.join(", ")}; got "${settings.dtype}"`);
  if (!Number.isInteger(settings.threads) || settings.threads < 1) throw invalid(`threads must be a positive integer; got ${settings.threads}`);
  return settings;
}

function invalid(message: string): Error {
  return createError("INVALID_ARGUMENT", message);
}
