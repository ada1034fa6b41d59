import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createReranker, loadRerankerInProcess } from "../../src/models/create-reranker.js";
import type { RerankerLoad } from "../../src/models/embedder.js";
import type { Reranker } from "../../src/models/embedder.js";
import { MODEL_CATALOGUE, modelFolder } from "../../src/models/model-catalogue.js";
import { tempDir } from "../helpers/fixtures.js";
import { runOnnxDirectly, writeTinyBert } from "../helpers/tiny-bert.js";
import { runRerankerConformance } from "./reranker-conformance.js";

function tinyRerankerDir(): string {
  const modelsDir = tempDir("models-");
  writeTinyBert(modelFolder(modelsDir, MODEL_CATALOGUE.reranker), "sequence-classification", 7);
  return modelsDir;
}

function ready(load: RerankerLoad): Reranker {
  if (load.status !== "ready") throw new Error(`reranker unavailable: ${load.reason}`);
  return load.reranker;
}

runRerankerConformance("cross-encoder in process (generated tiny BERT)", async () => ready(await loadRerankerInProcess({ modelsDir: tinyRerankerDir() })));
runRerankerConformance("cross-encoder in a worker thread (generated tiny BERT)", async () => ready(await createReranker({ modelsDir: tinyRerankerDir() })));

describe("cross-encoder reranker", () => {
  it("is the sigmoid of the sequence-classification logit, not a softmax over one logit", async () => {
    const modelsDir = tinyRerankerDir();
    const folder = modelFolder(modelsDir, MODEL_CATALOGUE.reranker);
    const reranker = ready(await loadRerankerInProcess({ modelsDir }));
    const query = "send an email";
    const passages = ["email the invoice", "pod restart loop"];
    const scores = await reranker.score(query, passages);
    await reranker.close();

    const { output, tokenTypeIds } = await runOnnxDirectly(folder, [query, query], passages);
    expect(tokenTypeIds.includes(1n)).toBe(true); // the passage is segment B
    Array.from(output.data as Float32Array).forEach((logit, index) => expect(scores[index]).toBeCloseTo(1 / (1 + Math.exp(-logit)), 6));
    expect(scores.some((score) => score < 0.999)).toBe(true);
  });

  it("says why it is unavailable: missing files, damaged files", async () => {
    const missing = await loadRerankerInProcess({ modelsDir: tempDir() });
    expect(missing).toMatchObject({ status: "unavailable", reason: expect.stringMatching(/files missing in .*ms-marco-MiniLM-L-6-v2: .*onnx\/model_quantized\.onnx.*router models pull reranker/) });
    expect(await createReranker({ modelsDir: tempDir() })).toMatchObject({ status: "unavailable", reason: expect.stringMatching(/files missing/) });

    const damaged = tinyRerankerDir();
    writeFileSync(path.join(modelFolder(damaged, MODEL_CATALOGUE.reranker), "onnx", "model_quantized.onnx"), "garbage");
    expect(await createReranker({ modelsDir: damaged })).toMatchObject({ status: "unavailable", reason: expect.stringMatching(/Cannot load the model/) });
  });
});
