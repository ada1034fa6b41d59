import { readFileSync } from "node:fs";
import path from "node:path";
import { createError } from "../errors.js";
import type { Embedder } from "./embedder.js";
import { loadOrExplain } from "./load-or-explain.js";
import { CATALOGUE_EMBEDDERS, inspectModelFiles, requiredFiles, type CatalogueEmbedder, type EmbedderModelName, type ModelFiles } from "./model-catalogue.js";
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
  kind: "offline" | EmbedderModelName;
  /** Why this one, in words (`router doctor` shows it). */
  reason: string;
  create(): Promise<Embedder>;
}

export function planEmbedder(options: EmbedderOptions = {}): EmbedderPlan {
  const settings = modelSettings(options);
  const offline = offlinePlan(settings);
  const local = CATALOGUE_EMBEDDERS.map((model) => ({ model, files: inspectModelFiles(settings.modelsDir, model, settings.dtype) }));
  const ready = local.flatMap(({ model, files }) => (files.dtype ? [localModelPlan(settings, model, files)] : []));
  const choice = settings.embedder;
  // The explicitly chosen model: its files, else a pull (ROUTER_ALLOW_REMOTE_MODELS), else MODEL_NOT_FOUND.
  const chosen = (): EmbedderPlan => {
    const plan = ready.find((candidate) => candidate.kind === choice);
    if (plan) return { ...plan, reason: `chosen explicitly (ROUTER_EMBEDDER=${choice})` };
    const { model, files } = local.find((entry) => entry.model.name === choice)!;
    return missingModel(settings, model, files);
  };
  const index = options.indexEmbedder;
  if (index) {
    const candidates = choice === "auto" ? [...ready, offline] : [choice === "offline" ? offline : chosen()];
    const match = candidates.find((plan) => plan.id === index);
    if (match) return { ...match, reason: `the index was built with ${index}` };
    const available = [offline, ...ready].map((plan) => plan.id);
    throw createError(
      "EMBEDDER_MISMATCH",
      `The index was built with ${index}, which is not available here (available: ${available.join(", ")}; models folder ${settings.modelsDir}). Run \`router index\` again to re-embed, or restore that model's files.`,
      { index, available },
    );
  }
  if (choice === "offline") return { ...offline, reason: "chosen explicitly (ROUTER_EMBEDDER=offline)" };
  if (choice !== "auto") return chosen();
  const absent = local.map(({ files }) => `${files.folder} (missing ${files.missing.join(", ")})`);
  return ready[0] ?? { ...offline, reason: `auto: no complete model files in ${absent.join(" or ")}` };
}

/** The embedder to use for an index run (in-process; the query path uses createQueryEncoder instead). */
export async function createEmbedder(options: EmbedderOptions = {}): Promise<Embedder> {
  return planEmbedder(options).create();
}

function offlinePlan(settings: ModelSettings): EmbedderPlan {
  return { ...USE_LITE, modelFiles: () => readOfflineModelBuild().sha256, kind: "offline", reason: "offline default", create: () => createUseLiteEmbedder({ threads: settings.threads }) };
}

function localModelPlan(settings: ModelSettings, model: CatalogueEmbedder, files: ModelFiles): EmbedderPlan {
  const dtype = files.dtype!;
  const id = `${model.idPrefix}-${dtype}`;
  let hashed: string | undefined;
  return {
    id,
    dimension: hiddenSize(files.folder),
    version: MINILM_CODE_VERSION,
    // Hashing reads the ONNX file (23 MB for MiniLM's q8): only an index run asks, once.
    modelFiles: () => (hashed ??= hashModelFiles(files.folder, requiredFiles(dtype))),
    kind: model.name,
    reason: `auto: ${model.repo} files found in ${files.folder} (${dtype})`,
    create: () => loadOrExplain(files.folder, () => createMiniLmEmbedder({ id, folder: files.folder, dtype, threads: settings.threads, maxTokens: model.maxTokens })),
  };
}

/** A model asked for by name without its files: pulled first when remote models are allowed, else an error. */
function missingModel(settings: ModelSettings, model: CatalogueEmbedder, files: ModelFiles): EmbedderPlan {
  if (!settings.allowRemoteModels) {
    throw createError(
      "MODEL_NOT_FOUND",
      `${model.name} files missing in ${files.folder}: ${files.missing.join(", ")}. Run \`router models pull ${model.name}\`, copy the files there, set ROUTER_ALLOW_REMOTE_MODELS=1 to fetch them on first use, or use the offline embedder.`,
      { folder: files.folder, missing: files.missing },
    );
  }
  const dtype = settings.dtype ?? "q8";
  return {
    id: `${model.idPrefix}-${dtype}`,
    dimension: model.dimension!,
    version: MINILM_CODE_VERSION,
    modelFiles() {
      const pulled = inspectModelFiles(settings.modelsDir, model, dtype);
      return pulled.dtype ? hashModelFiles(pulled.folder, requiredFiles(dtype)) : "";
    },
    kind: model.name,
    reason: `chosen explicitly; files to be pulled from the hub into ${files.folder} (ROUTER_ALLOW_REMOTE_MODELS)`,
    async create() {
      await pullModel({ model, dtype, modelsDir: settings.modelsDir, ...settings.hub });
      return localModelPlan(settings, model, inspectModelFiles(settings.modelsDir, model, dtype)).create();
    },
  };
}

function hiddenSize(folder: string): number {
  const size = (JSON.parse(readFileSync(path.join(folder, "config.json"), "utf8")) as { hidden_size?: unknown }).hidden_size;
  if (!Number.isInteger(size) || (size as number) < 1) throw createError("MODEL_LOAD_FAILED", `${path.join(folder, "config.json")} has no valid hidden_size`);
  return size as number;
}
