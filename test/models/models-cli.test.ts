import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MODEL_CATALOGUE, modelFolder, type CatalogueModel } from "../../src/models/model-catalogue.js";
import { openIndexForRead } from "../../src/store/database.js";
import { readMeta } from "../../src/store/index-meta.js";
import { countTexts, countVectors } from "../../src/store/vectors.js";
import { tempDir, writeAgentSkill } from "../helpers/fixtures.js";
import { closedEndpoint, startMockHub } from "../helpers/mock-hub.js";
import { writeTinyBert } from "../helpers/tiny-bert.js";
import { runCliAsync } from "./run-cli-async.js";

const { minilm, multilingual, reranker } = MODEL_CATALOGUE;

function indexFacts(db: string) {
  const index = openIndexForRead(db);
  try {
    const meta = readMeta(index);
    return { embedder: meta.embedder, dimension: meta.dimension, texts: countTexts(index), vectors: countVectors(index) };
  } finally {
    index.close();
  }
}

describe("router models and router doctor", () => {
  it("have --help", async () => {
    for (const args of [
      ["models", "--help"],
      ["models", "pull", "--help"],
      ["models", "list", "--help"],
      ["doctor", "--help"],
    ]) {
      const result = await runCliAsync(args);
      expect(result.status, args.join(" ")).toBe(0);
      expect(result.stdout).toContain(`Usage: router ${args.slice(0, -1).join(" ")}`);
    }
  });

  it("pull: fails with a clear message when the hub is unreachable, and refuses unknown names", async () => {
    const modelsDir = tempDir();
    const offline = await runCliAsync(["models", "pull", "--models-dir", modelsDir], { HF_ENDPOINT: await closedEndpoint() });
    expect(offline.status).toBe(1);
    expect(offline.stderr).toMatch(/^error \[MODEL_DOWNLOAD_FAILED\]: Cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)\. Check the network/m);
    // It gave up on the first model: one error, and nothing half-written in the models folder.
    expect(offline.stderr.match(/MODEL_DOWNLOAD_FAILED/g)).toHaveLength(1);
    expect(readdirSync(modelsDir)).toEqual([]);
    const unknown = await runCliAsync(["models", "pull", "gpt-9"]);
    expect([unknown.status, unknown.stderr.trim()]).toEqual([2, 'error [INVALID_ARGUMENT]: Unknown model "gpt-9": use minilm, multilingual, reranker, default or all']);
  });

  it("pull: downloads MiniLM and the reranker from a hub, then `auto` and doctor use them; a corrupted file fails with exit 1", async () => {
    const source = tempDir("hub-");
    const published = (model: CatalogueModel, head: "feature-extraction" | "sequence-classification") => {
      const folder = modelFolder(source, model);
      return [model.repo, { folder, files: writeTinyBert(folder, head) }] as const;
    };
    const repos = Object.fromEntries([published(minilm, "feature-extraction"), published(multilingual, "feature-extraction"), published(reranker, "sequence-classification")]);
    const hub = await startMockHub(repos);
    const corruptHub = await startMockHub(repos, { corrupt: ["onnx/model_quantized.onnx"] });
    try {
      const modelsDir = tempDir();
      const pulled = await runCliAsync(["models", "pull", "--models-dir", modelsDir], { HF_ENDPOINT: hub.url });
      expect(pulled.status, pulled.stderr).toBe(0);
      expect(pulled.stdout).toContain(`minilm: Xenova/all-MiniLM-L6-v2 -> ${modelFolder(modelsDir, minilm)}`);
      expect(pulled.stdout).toContain("4 downloaded");
      const list = JSON.parse((await runCliAsync(["models", "list", "--json", "--models-dir", modelsDir])).stdout);
      // The multilingual embedder is pulled only when asked for by name (or with `all`).
      expect(list.models.map((model: { name: string; dtype: string }) => [model.name, model.dtype])).toEqual([
        ["minilm", "q8"],
        ["multilingual", null],
        ["reranker", "q8"],
      ]);
      const named = await runCliAsync(["models", "pull", "multilingual", "--models-dir", modelsDir], { HF_ENDPOINT: hub.url });
      expect(named.stdout).toContain(`multilingual: Xenova/paraphrase-multilingual-MiniLM-L12-v2 -> ${modelFolder(modelsDir, multilingual)}`);

      const doctor = await runCliAsync(["doctor", "--json", "--models-dir", modelsDir, "--db", path.join(tempDir(), "none.db")]);
      expect(doctor.status).toBe(0);
      const report = JSON.parse(doctor.stdout);
      expect(report.models.embedder).toMatchObject({ id: "minilm-l6-v2-q8", kind: "minilm", dimension: 32, check: { ok: true } });
      expect(report.models.reranker).toMatchObject({ available: true, id: "ms-marco-minilm-l6-v2-q8" });
      expect(report.warnings).toEqual([expect.stringMatching(/no index at .*none\.db yet/)]);

      // Opted in, an explicitly chosen MiniLM without files is pulled (with the same checks) by the index run.
      const skills = tempDir();
      writeAgentSkill(skills, "alpha");
      const remote = await runCliAsync(["index", skills, "--db", path.join(tempDir(), "r.db"), "--json"], {
        ROUTER_EMBEDDER: "minilm",
        ROUTER_ALLOW_REMOTE_MODELS: "1",
        ROUTER_MODELS_DIR: tempDir(),
        HF_ENDPOINT: hub.url,
      });
      expect(remote.status, remote.stderr).toBe(0);
      expect(JSON.parse(remote.stdout)).toMatchObject({ embedded: 1, embedder: "minilm-l6-v2-q8" });
      const chosen = await runCliAsync(["index", skills, "--db", path.join(tempDir(), "m.db"), "--json"], { ROUTER_EMBEDDER: "multilingual", ROUTER_MODELS_DIR: modelsDir });
      expect(chosen.status, chosen.stderr).toBe(0);
      expect(JSON.parse(chosen.stdout)).toMatchObject({ embedded: 1, embedder: "multilingual-minilm-l12-v2-q8" });

      const corrupt = await runCliAsync(["models", "pull", "reranker", "--models-dir", tempDir()], { HF_ENDPOINT: corruptHub.url });
      expect(corrupt.status).toBe(1);
      expect(corrupt.stderr).toMatch(/^error \[MODEL_INTEGRITY_FAILED\]: Xenova\/ms-marco-MiniLM-L-6-v2\/onnx\/model_quantized\.onnx: sha256 is/m);
    } finally {
      await Promise.all([hub.close(), corruptHub.close()]);
    }
  });

  it("a change of embedder re-embeds every skill, even when no skill changed; doctor explains each state", async () => {
    const root = tempDir();
    for (const name of ["alpha", "beta", "gamma"]) writeAgentSkill(root, name);
    const db = path.join(tempDir(), "router.db");
    const modelsDir = tempDir();
    const env = { ROUTER_MODELS_DIR: modelsDir };
    const index = async () => {
      const result = await runCliAsync(["index", root, "--db", db, "--json"], env);
      expect(result.status, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as { embedded: number; embedder: string };
    };

    expect(await index()).toMatchObject({ embedded: 3, embedder: "use-lite-512" });
    const offline = indexFacts(db);
    expect(offline).toMatchObject({ embedder: "use-lite-512", dimension: 512 });
    expect(await index()).toMatchObject({ embedded: 0 });

    writeTinyBert(modelFolder(modelsDir, minilm), "feature-extraction");
    const stale = JSON.parse((await runCliAsync(["doctor", "--json", "--db", db], env)).stdout);
    expect(stale.warnings).toContainEqual(expect.stringMatching(/index built with use-lite-512, but minilm-l6-v2-q8 is picked now/));

    expect(await index()).toMatchObject({ embedded: 3, embedder: "minilm-l6-v2-q8" });
    expect(indexFacts(db)).toEqual({ embedder: "minilm-l6-v2-q8", dimension: 32, texts: offline.texts, vectors: offline.texts });

    rmSync(modelFolder(modelsDir, minilm), { recursive: true });
    const broken = await runCliAsync(["doctor", "--db", db], env);
    expect(broken.status).toBe(1);
    expect(broken.stdout).toMatch(/Problems\n {2}- The index was built with minilm-l6-v2-q8, which is not available here/);

    expect(await index()).toMatchObject({ embedded: 3, embedder: "use-lite-512" });
    expect(indexFacts(db)).toMatchObject({ embedder: "use-lite-512", dimension: 512 });
  });

  it("an explicit MiniLM choice without its files stops the index run with MODEL_NOT_FOUND (exit 3)", async () => {
    const root = tempDir();
    writeAgentSkill(root, "alpha");
    const result = await runCliAsync(["index", root, "--db", path.join(tempDir(), "r.db")], { ROUTER_EMBEDDER: "minilm", ROUTER_MODELS_DIR: path.join(tempDir(), "absent") });
    expect(result.status).toBe(3);
    expect(result.stderr).toMatch(/^error \[MODEL_NOT_FOUND\]: minilm files missing in .*absent\/Xenova\/all-MiniLM-L6-v2: config\.json/m);
  });
});
