import { writeFileSync } from "node:fs";
import path from "node:path";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { createEmbedder, planEmbedder } from "../../src/models/create-embedder.js";
import { MODEL_CATALOGUE, modelFolder } from "../../src/models/model-catalogue.js";
import { hashModelFiles } from "../../src/models/model-files-hash.js";
import { startEmbedderWorker } from "../../src/models/model-worker-client.js";
import { loadSettings } from "../../src/config/load-settings.js";
import { modelOptions } from "../../src/config/model-options.js";
import { modelSettings } from "../../src/models/model-settings.js";
import { tempDir } from "../helpers/fixtures.js";
import { runOnnxDirectly, TINY_HIDDEN, writeTinyBert } from "../helpers/tiny-bert.js";
import { cosine, runEmbedderConformance } from "./embedder-conformance.js";

/** A models folder holding the generated MiniLM-shaped model where the catalogue's embedder's files go (MiniLM's by default). */
function tinyModelsDir(model = MODEL_CATALOGUE.minilm): string {
  const modelsDir = tempDir("models-");
  writeTinyBert(modelFolder(modelsDir, model), "feature-extraction");
  return modelsDir;
}

runEmbedderConformance("MiniLM code path (transformers.js) on a generated tiny BERT", () => createEmbedder({ embedder: "minilm", modelsDir: tinyModelsDir() }));
// The embedder `router serve` queries: the same model behind a worker thread (model-worker-client.ts).
runEmbedderConformance("the same, in a worker thread", () => startEmbedderWorker({ embedder: "minilm", modelsDir: tinyModelsDir() }));

describe("MiniLM embedder (generated tiny BERT, same transformers.js code path)", () => {
  it("loads the ONNX file with onnxruntime-node directly, with BERT's inputs and output", async () => {
    const folder = modelFolder(tinyModelsDir(), MODEL_CATALOGUE.minilm);
    const session = await ort.InferenceSession.create(path.join(folder, "onnx", "model_quantized.onnx"));
    expect([...session.inputNames].sort()).toEqual(["attention_mask", "input_ids", "token_type_ids"]);
    expect(session.outputNames).toEqual(["last_hidden_state"]);
    await session.release();
  });

  it("mean-pools the token states over the attention mask, then L2-normalises", async () => {
    const folder = modelFolder(tinyModelsDir(), MODEL_CATALOGUE.minilm);
    const texts = ["why does my pod keep restarting", "fix sql"];
    const embedder = await createEmbedder({ embedder: "minilm", modelsDir: path.dirname(path.dirname(folder)) });
    const actual = await embedder.embed(texts);
    await embedder.close();

    // The same computation by hand: raw onnxruntime session, masked mean, unit length.
    const { output: hidden, attentionMask: mask } = await runOnnxDirectly(folder, texts);
    const [batch, tokens] = hidden.dims as number[];
    const states = hidden.data as Float32Array;
    for (let row = 0; row < batch!; row++) {
      const pooled = new Float32Array(TINY_HIDDEN);
      let count = 0;
      for (let token = 0; token < tokens!; token++) {
        if (mask[row * tokens! + token] === 0n) continue;
        count++;
        for (let d = 0; d < TINY_HIDDEN; d++) pooled[d]! += states[(row * tokens! + token) * TINY_HIDDEN + d]!;
      }
      pooled.forEach((value, d) => (pooled[d] = value / count));
      expect(cosine(pooled, actual[row]!)).toBeGreaterThan(0.99999);
    }
    expect(mask.includes(0n)).toBe(true); // the short text was padded, so the mask mattered
  });

  it("is what `auto` picks when MiniLM's files are present, and reports why", () => {
    const modelsDir = tinyModelsDir();
    const withModel = planEmbedder({ embedder: "auto", modelsDir });
    expect(withModel).toMatchObject({ kind: "minilm", id: "minilm-l6-v2-q8", dimension: TINY_HIDDEN, version: "1" });
    expect(withModel.reason).toMatch(/all-MiniLM-L6-v2 files found/);
    // The index records a hash of the files this embedder loads: other files under the same id embed everything again.
    const folder = modelFolder(modelsDir, MODEL_CATALOGUE.minilm);
    expect(withModel.modelFiles()).toBe(hashModelFiles(folder, ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model_quantized.onnx"]));
    writeFileSync(path.join(folder, "tokenizer_config.json"), "{}");
    expect(planEmbedder({ embedder: "auto", modelsDir }).modelFiles()).not.toBe(withModel.modelFiles());
    const without = planEmbedder({ embedder: "auto", modelsDir: tempDir() });
    expect(without).toMatchObject({ kind: "offline", id: "use-lite-512", dimension: 512 });
    expect(without.reason).toMatch(/missing .*onnx\/model_quantized\.onnx/);
  });

  it("the multilingual MiniLM: auto takes it when its files are the only ones, by name over MiniLM, and it reads 128 word pieces", async () => {
    const modelsDir = tinyModelsDir(MODEL_CATALOGUE.multilingual);
    expect(planEmbedder({ modelsDir })).toMatchObject({ kind: "multilingual", id: "multilingual-minilm-l12-v2-q8", dimension: TINY_HIDDEN });
    writeTinyBert(modelFolder(modelsDir, MODEL_CATALOGUE.minilm), "feature-extraction");
    expect(planEmbedder({ modelsDir })).toMatchObject({ kind: "minilm" });
    expect(planEmbedder({ modelsDir, embedder: "multilingual" })).toMatchObject({ kind: "multilingual", reason: "chosen explicitly (ROUTER_EMBEDDER=multilingual)" });
    expect(planEmbedder({ modelsDir, indexEmbedder: "multilingual-minilm-l12-v2-q8" })).toMatchObject({ kind: "multilingual" });

    // 130 words fill more than 128 word pieces: what follows is cut for this model, and read by MiniLM.
    const opening = Array(130).fill("pod").join(" ");
    const texts = [`${opening} weather rain`, `${opening} sql invoice`];
    const [multilingual, minilm] = await Promise.all(["multilingual", "minilm"].map((embedder) => createEmbedder({ modelsDir, embedder: embedder as "minilm" })));
    const [cutA, cutB] = await multilingual!.embed(texts);
    const [fullA, fullB] = await minilm!.embed(texts);
    await Promise.all([multilingual!.close(), minilm!.close()]);
    expect(cosine(cutA!, cutB!)).toBeGreaterThan(0.99999);
    expect(cosine(fullA!, fullB!)).toBeLessThan(0.9999);

    expect(() => planEmbedder({ embedder: "multilingual", modelsDir: tempDir() })).toThrow(
      expect.objectContaining({ code: "MODEL_NOT_FOUND", message: expect.stringMatching(/router models pull multilingual/) }),
    );
  });

  it("gives clear error codes for a missing folder, damaged files and a foreign index", async () => {
    expect(() => planEmbedder({ embedder: "minilm", modelsDir: path.join(tempDir(), "nowhere") })).toThrow(
      expect.objectContaining({ code: "MODEL_NOT_FOUND", message: expect.stringMatching(/router models pull minilm/) }),
    );

    const damaged = tinyModelsDir();
    writeFileSync(path.join(modelFolder(damaged, MODEL_CATALOGUE.minilm), "onnx", "model_quantized.onnx"), "not an onnx file");
    await expect(createEmbedder({ embedder: "minilm", modelsDir: damaged })).rejects.toMatchObject({ code: "MODEL_LOAD_FAILED" });

    expect(() => planEmbedder({ modelsDir: tempDir(), indexEmbedder: "minilm-l6-v2-q8" })).toThrow(expect.objectContaining({ code: "EMBEDDER_MISMATCH" }));
    // An index built by the offline default keeps it, even once MiniLM's files appear.
    expect(planEmbedder({ modelsDir: tinyModelsDir(), indexEmbedder: "use-lite-512" })).toMatchObject({ kind: "offline", reason: "the index was built with use-lite-512" });
  });

  it("refuses unknown settings with INVALID_ARGUMENT, from options or the environment", () => {
    expect(() => planEmbedder({ embedder: "bert" as never })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT", message: 'embedder must be one of auto, offline, minilm, multilingual; got "bert"' }),
    );
    expect(() => modelSettings({ threads: 0 })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    expect(() => modelSettings({ dtype: "int4" as never })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    const models = (env: Record<string, string>) => modelOptions(loadSettings({ env }).settings);
    expect(() => models({ ROUTER_EMBEDDER: "bert" })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/ROUTER_EMBEDDER: .*"auto"/) }));
    expect(() => models({ ROUTER_MODEL_THREADS: "0" })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/ROUTER_MODEL_THREADS: /) }));
    expect(() => models({ ROUTER_MODEL_DTYPE: "int4" })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/ROUTER_MODEL_DTYPE: /) }));
    expect(models({ ROUTER_EMBEDDER: "offline", ROUTER_MODELS_DIR: "/m", ROUTER_MODEL_THREADS: "2", ROUTER_ALLOW_REMOTE_MODELS: "1", HF_TOKEN: "hf_x" })).toEqual({
      embedder: "offline",
      modelsDir: "/m",
      dtype: undefined,
      threads: 2,
      allowRemoteModels: true,
      hub: { endpoint: "https://huggingface.co", token: "hf_x" },
    });
  });
});
