import { existsSync } from "node:fs";
import path from "node:path";

/** The catalogue's sentence embedders, which ROUTER_EMBEDDER can name. */
export type EmbedderModelName = "minilm" | "multilingual";
export type ModelName = EmbedderModelName | "reranker";
/** q8: the dynamically quantised ONNX export (the default, about 4x smaller and faster); fp32: the full one. */
export type ModelDtype = "q8" | "fp32";

export interface CatalogueModel {
  name: ModelName;
  /** Hugging Face repository; the local copy lives at `<models dir>/<repo>`, the hub's own layout. */
  repo: string;
  role: "embedder" | "reranker";
  /** Short embedder id prefix; the dtype is appended, as the two dtypes give different vectors. */
  idPrefix: string;
  /** The published model's vector size, for an embedder still to be pulled (local files: config.json says). */
  dimension?: number;
  /** Word pieces an embedder reads of a text: the length its sentence-transformers config was trained with. */
  maxTokens?: number;
  /** Pulled by `router models pull` with no name; the others only by name or with `all`. */
  pulledByDefault: boolean;
}

export const MODEL_CATALOGUE: Record<EmbedderModelName, CatalogueEmbedder> & Record<"reranker", CatalogueModel> = {
  minilm: { name: "minilm", repo: "Xenova/all-MiniLM-L6-v2", role: "embedder", idPrefix: "minilm-l6-v2", dimension: 384, maxTokens: 256, pulledByDefault: true },
  // 50+ languages in one space, so a Chinese request meets an English skill description; 118 M parameters, 5x MiniLM.
  multilingual: {
    name: "multilingual",
    repo: "Xenova/paraphrase-multilingual-MiniLM-L12-v2",
    role: "embedder",
    idPrefix: "multilingual-minilm-l12-v2",
    dimension: 384,
    maxTokens: 128,
    pulledByDefault: false,
  },
  reranker: { name: "reranker", repo: "Xenova/ms-marco-MiniLM-L-6-v2", role: "reranker", idPrefix: "ms-marco-minilm-l6-v2", pulledByDefault: true },
};

export type CatalogueEmbedder = CatalogueModel & { name: EmbedderModelName };

/** The transformers.js embedders, in the order `auto` tries them. */
export const CATALOGUE_EMBEDDERS: CatalogueEmbedder[] = [MODEL_CATALOGUE.minilm, MODEL_CATALOGUE.multilingual];

export const MODEL_DTYPES: ModelDtype[] = ["q8", "fp32"];

/** The ONNX file transformers.js loads for each dtype. */
const ONNX_FILES: Record<ModelDtype, string> = { q8: "onnx/model_quantized.onnx", fp32: "onnx/model.onnx" };

/** What transformers.js reads besides the ONNX graph: the architecture and the tokenizer. */
const SUPPORT_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json"];

export function requiredFiles(dtype: ModelDtype): string[] {
  return [...SUPPORT_FILES, ONNX_FILES[dtype]];
}

export function modelFolder(modelsDir: string, model: CatalogueModel): string {
  return path.join(modelsDir, ...model.repo.split("/"));
}

/** Which files of a model are on disk, and the dtype they make usable (q8 preferred unless one is asked for). */
export interface ModelFiles {
  model: CatalogueModel;
  folder: string;
  /** The dtype to load; undefined when the files of no dtype are complete. */
  dtype: ModelDtype | undefined;
  found: string[];
  missing: string[];
}

export function inspectModelFiles(modelsDir: string, model: CatalogueModel, preferred?: ModelDtype): ModelFiles {
  const folder = modelFolder(modelsDir, model);
  const present = (file: string) => existsSync(path.join(folder, file));
  const candidates = preferred ? [preferred] : MODEL_DTYPES;
  const dtype = candidates.find((candidate) => requiredFiles(candidate).every(present));
  const listed = requiredFiles(dtype ?? candidates[0]!);
  return { model, folder, dtype, found: listed.filter(present), missing: listed.filter((file) => !present(file)) };
}

/** Resolves `router models pull` names: the short name or the repository. */
export function findCatalogueModel(name: string): CatalogueModel | undefined {
  return Object.values(MODEL_CATALOGUE).find((model) => model.name === name || model.repo.toLowerCase() === name.toLowerCase());
}
