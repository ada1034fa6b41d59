import { isRouterError } from "../errors.js";
import { planEmbedder, type EmbedderOptions } from "./create-embedder.js";
import { loadRerankerInProcess } from "./create-reranker.js";
import { inspectModelFiles, MODEL_CATALOGUE } from "./model-catalogue.js";
import { modelSettings } from "./model-settings.js";

/** Whether a model loaded and answered one call, and how long that took. */
export type LoadCheck = { ok: true; ms: number } | { ok: false; code: string; message: string };

export interface ModelDiagnosis {
  modelsDir: string;
  choice: string;
  embedder: { id: string; kind: string; dimension: number; reason: string; check: LoadCheck } | { error: { code: string; message: string } };
  files: { name: string; repo: string; role: string; folder: string; dtype: string | null; found: string[]; missing: string[] }[];
  reranker: { available: true; id: string; check: { ok: true; ms: number } } | { available: false; reason: string };
}

/** What `auto` picks and why, which model files are present, and whether each model really loads and runs. */
export async function diagnoseModels(options: EmbedderOptions = {}): Promise<ModelDiagnosis> {
  const settings = modelSettings(options);
  const files = Object.values(MODEL_CATALOGUE).map((model) => {
    const found = inspectModelFiles(settings.modelsDir, model, settings.dtype);
    return { name: model.name, repo: model.repo, role: model.role, folder: found.folder, dtype: found.dtype ?? null, found: found.found, missing: found.missing };
  });
  return { modelsDir: settings.modelsDir, choice: settings.embedder, embedder: await diagnoseEmbedder(options), files, reranker: await diagnoseReranker(options) };
}

async function diagnoseEmbedder(options: EmbedderOptions): Promise<ModelDiagnosis["embedder"]> {
  try {
    const plan = planEmbedder(options);
    const check = await timed(async () => {
      const embedder = await plan.create();
      try {
        await embedder.embed(["router doctor check"]);
      } finally {
        await embedder.close();
      }
    });
    return { id: plan.id, kind: plan.kind, dimension: plan.dimension, reason: plan.reason, check };
  } catch (error) {
    return { error: describe(error) };
  }
}

async function diagnoseReranker(options: EmbedderOptions): Promise<ModelDiagnosis["reranker"]> {
  let id = "";
  const check = await timed(async () => {
    const load = await loadRerankerInProcess(options);
    if (load.status === "unavailable") throw new Error(load.reason);
    id = load.reranker.id;
    try {
      await load.reranker.score("router doctor check", ["a passage"]);
    } finally {
      await load.reranker.close();
    }
  });
  return check.ok ? { available: true, id, check } : { available: false, reason: check.message };
}

async function timed(work: () => Promise<void>): Promise<LoadCheck> {
  const started = performance.now();
  try {
    await work();
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, ...describe(error) };
  }
}

function describe(error: unknown): { code: string; message: string } {
  return isRouterError(error) ? { code: error.code, message: error.message } : { code: "MODEL_FAILED", message: error instanceof Error ? error.message : String(error) };
}
