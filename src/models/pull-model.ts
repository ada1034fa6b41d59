import { createHash, type Hash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { once } from "node:events";
import path from "node:path";
import { createError } from "../errors.js";
import { hubSettings, listRepoFiles, openRepoFile, type HubFile, type HubOptions } from "./hub-client.js";
import { modelFolder, requiredFiles, type CatalogueModel, type ModelDtype } from "./model-catalogue.js";

export interface PullOptions extends HubOptions {
  model: CatalogueModel;
  dtype: ModelDtype;
  modelsDir: string;
  onProgress?: (event: PullProgress) => void;
}

export type PullProgress = { file: string; done: number; total: number };

export interface PulledFile {
  file: string;
  bytes: number;
  status: "downloaded" | "up to date";
}

/**
 * Downloads what transformers.js needs of one model (config, tokenizer, the ONNX file of the dtype) into
 * `<models dir>/<repo>/`. Each file is checked against the size and hash the hub publishes (sha256 for LFS
 * files, the git blob id for the others) before it replaces anything, so a damaged download never lands.
 * Files already present and intact are not downloaded again.
 */
export async function pullModel(options: PullOptions): Promise<PulledFile[]> {
  const hub = hubSettings(options);
  const listed = new Map((await listRepoFiles(options.model.repo, hub)).map((file) => [file.path, file]));
  const wanted = requiredFiles(options.dtype);
  const absent = wanted.filter((file) => !listed.has(file));
  if (absent.length > 0) throw createError("MODEL_DOWNLOAD_FAILED", `${options.model.repo} at ${hub.revision} has no ${absent.join(", ")}`, { repo: options.model.repo, absent });

  const folder = modelFolder(options.modelsDir, options.model);
  const pulled: PulledFile[] = [];
  for (const file of wanted) {
    const expected = listed.get(file)!;
    const target = path.join(folder, file);
    if (existsSync(target) && (await matches(target, expected))) {
      pulled.push({ file, bytes: expected.size, status: "up to date" });
      continue;
    }
    mkdirSync(path.dirname(target), { recursive: true });
    const partial = `${target}.part`;
    try {
      const { body, linkedEtag } = await openRepoFile(options.model.repo, file, hub);
      if (expected.lfs && linkedEtag && linkedEtag !== expected.lfs.oid) {
        throw createError("MODEL_INTEGRITY_FAILED", `${options.model.repo}/${file}: the hub lists sha256 ${expected.lfs.oid} but serves ${linkedEtag}`);
      }
      const digest = await download(body, partial, expected, (done) => options.onProgress?.({ file, done, total: expected.size }));
      verify(options.model.repo, file, expected, digest);
      renameSync(partial, target);
    } finally {
      rmSync(partial, { force: true });
    }
    pulled.push({ file, bytes: expected.size, status: "downloaded" });
  }
  return pulled;
}

interface Digest {
  size: number;
  sha256: string;
  gitOid: string;
}

async function download(body: AsyncIterable<Uint8Array>, file: string, expected: HubFile, onProgress: (done: number) => void): Promise<Digest> {
  const hashes = newHashes(expected.size);
  const out = createWriteStream(file);
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    hashes.sha256.update(chunk);
    hashes.git.update(chunk);
    onProgress(size);
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return { size, sha256: hashes.sha256.digest("hex"), gitOid: hashes.git.digest("hex") };
}

function verify(repo: string, file: string, expected: HubFile, digest: Digest): void {
  const size = expected.lfs?.size ?? expected.size;
  if (digest.size !== size) throw createError("MODEL_INTEGRITY_FAILED", `${repo}/${file}: received ${digest.size} bytes, the hub lists ${size}`, { file });
  const [kind, want, got] = expected.lfs ? ["sha256", expected.lfs.oid, digest.sha256] : ["git blob id", expected.oid, digest.gitOid];
  if (want !== got) throw createError("MODEL_INTEGRITY_FAILED", `${repo}/${file}: ${kind} is ${got}, the hub lists ${want}`, { file });
}

async function matches(file: string, expected: HubFile): Promise<boolean> {
  const size = expected.lfs?.size ?? expected.size;
  if (statSync(file).size !== size) return false;
  const hashes = newHashes(size);
  for await (const chunk of createReadStream(file)) {
    hashes.sha256.update(chunk as Buffer);
    hashes.git.update(chunk as Buffer);
  }
  return expected.lfs ? hashes.sha256.digest("hex") === expected.lfs.oid : hashes.git.digest("hex") === expected.oid;
}

/** sha256 of the content, and git's blob id: sha1 over a "blob <size>\0" header and the content. */
function newHashes(size: number): { sha256: Hash; git: Hash } {
  return { sha256: createHash("sha256"), git: createHash("sha1").update(`blob ${size}\0`) };
}
