import { readFileSync } from "node:fs";
import path from "node:path";
import { createError } from "../errors.js";
import type { Embedder } from "./embedder.js";
import { loadOrExplain } from "./load-or-explain.js";
import { inspectModelFiles, MODEL_CATALOGUE, requiredFiles, type ModelFiles } from "./model-catalogue.js";
import { hashModelFiles } from "./model-files-hash.js";
import { modelSettings, type ModelSettings } from "./model-settings.js";
import { createMiniLmEmbedder, MINILM_CODE_VERSION } from "./minilm-embedder.js";
import { readOfflineModelBuild } from "./offline-model-files.js";
import { pullModel } from "./pull-model.js";
import { createUseLiteEmbedder, USE_LITE } from "./use-lite-embedder.js";

export interface EmbedderOptions extends Partial<ModelSettings> {
  /**
   * The embedder id recorded in an index (its meta `embedder`). The embedder that made those vectors is
   * used even if `auto` would now pick another; EMBEDDER_MISMATCH when it is not available here.
   */
  indexEmbedder?: string | null;
}

/** The embedder a run or a server would use, decided without loading any model. */
export interface EmbedderPlan {
  id: string;
  dimension: number;
  /** The embedding code's version (Embedder.version). */
  version: string;
  /** sha256 of the model files this embedder loads, read or hashed on first call ("" while they are still to be pulled). */
  modelFiles(): string;
  kind: "offline" | "minilm";
  /** Why this one, in words (`router doctor` shows it). */
  reason: string;
  create(): Promise<Embedder>;
}

const MINILM = MODEL_CATALOGUE.minilm;

export function planEmbedder(options: EmbedderOptions = {}): EmbedderPlan {
  const settings = modelSettings(options);
  const files = inspectModelFiles(settings.modelsDir, MINILM, settings.dtype);
  const offline = offlinePlan(settings);
  const minilm = files.dtype ? localMiniLmPlan(settings, files) : undefined;
  const index = options.indexEmbedder;
  if (index) {
    const candidates = settings.embedder === "auto" ? [minilm, offline] : [settings.embedder === "offline" ? offline : (minilm ?? missingMiniLm(settings, files))];
    const match = candidates.find((plan) => plan?.id === index);
    if (match) return { ...match, reason: `the index was built with ${index}` };
    const available = [offline, minilm].flatMap((plan) => (plan ? [plan.id] : []));
    throw createError(
      "EMBEDDER_MISMATCH",
      `The index was built with ${index}, which is not available here (available: ${available.join(", ")}; models folder ${settings.modelsDir}). Run \`router index\` again to re-embed, or restore that model's files.`,
      { index, available },
    );
  }
  if (settings.embedder === "offline") return { ...offline, reason: "chosen explicitly (ROUTER_EMBEDDER=offline)" };
  if (settings.embedder === "minilm") return minilm ? { ...minilm, reason: "chosen explicitly (ROUTER_EMBEDDER=minilm)" } : missingMiniLm(settings, files);
  return minilm ?? { ...offline, reason: `auto: no complete MiniLM files in ${files.folder} (missing ${files.missing.join(", ")})` };
}

/** The embedder to use for an index run (in-process; the query path uses createQueryEncoder instead). */
export async function createEmbedder(options: EmbedderOptions = {}): Promise<Embedder> {
  return planEmbedder(options).create();
}

function offlinePlan(settings: ModelSettings): EmbedderPlan {
  return { ...USE_LITE, modelFiles: () => readOfflineModelBuild().sha256, kind: "offline", reason: "offline default", create: () => createUseLiteEmbedder({ threads: settings.threads }) };
}

function localMiniLmPlan(settings: ModelSettings, files: ModelFiles): EmbedderPlan {
  const dtype = files.dtype!;
  const id = `${MINILM.idPrefix}-${dtype}`;
  let hashed: string | undefined;
  return {
    id,
    dimension: hiddenSize(files.folder),
    version: MINILM_CODE_VERSION,
    // Hashing reads the ONNX file (23 MB for q8): only an index run asks, once.
    modelFiles: () => (hashed ??= hashModelFiles(files.folder, requiredFiles(dtype))),
    kind: "minilm",
    reason: `auto: MiniLM files found in ${files.folder} (${dtype})`,
    create: () => loadOrExplain(files.folder, () => createMiniLmEmbedder({ id, folder: files.folder, dtype, threads: settings.threads })),
  };
}

/** MiniLM asked for by name without its files: pulled first when remote models are allowed, else an error. */
function missingMiniLm(settings: ModelSettings, files: ModelFiles): EmbedderPlan {
  if (!settings.allowRemoteModels) {
    throw createError(
      "MODEL_NOT_FOUND",
      `MiniLM files missing in ${files.folder}: ${files.missing.join(", ")}. Run \`router models pull minilm\`, copy the files there, set ROUTER_ALLOW_REMOTE_MODELS=1 to fetch them on first use, or use the offline embedder.`,
      { folder: files.folder, missing: files.missing },
    );
  }
  const dtype = settings.dtype ?? "q8";
  return {
    id: `${MINILM.idPrefix}-${dtype}`,
    dimension: MINILM.dimension!,
    version: MINILM_CODE_VERSION,
    modelFiles() {
      const pulled = inspectModelFiles(settings.modelsDir, MINILM, dtype);
      return pulled.dtype ? hashModelFiles(pulled.folder, requiredFiles(dtype)) : "";
    },
    kind: "minilm",
    reason: `chosen explicitly; files to be pulled from the hub into ${files.folder} (ROUTER_ALLOW_REMOTE_MODELS)`,
    async create() {
      await pullModel({ model: MINILM, dtype, modelsDir: settings.modelsDir });
      return localMiniLmPlan(settings, inspectModelFiles(settings.modelsDir, MINILM, dtype)).create();
    },
  };
}

function hiddenSize(folder: string): number {
  const size = (JSON.parse(readFileSync(path.join(folder, "config.json"), "utf8")) as { hidden_size?: unknown }).hidden_size;
  if (!Number.isInteger(size) || (size as number) < 1) throw createError("MODEL_LOAD_FAILED", `${path.join(folder, "config.json")} has no valid hidden_size`);
  return size as number;
}
