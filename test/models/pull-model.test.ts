import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { planEmbedder } from "../../src/models/create-embedder.js";
import { MODEL_CATALOGUE, modelFolder } from "../../src/models/model-catalogue.js";
import { pullModel, type PullProgress } from "../../src/models/pull-model.js";
import { tempDir } from "../helpers/fixtures.js";
import { closedEndpoint, startMockHub, type MockHub } from "../helpers/mock-hub.js";
import { writeTinyBert } from "../helpers/tiny-bert.js";

const { minilm, reranker } = MODEL_CATALOGUE;

/** The generated tiny models, published by a mock hub under the real repository names. */
async function hubWithTinyModels(options: Parameters<typeof startMockHub>[1] = {}): Promise<MockHub> {
  const source = tempDir("hub-");
  const repos = Object.fromEntries(
    [minilm, reranker].map((model) => {
      const folder = modelFolder(source, model);
      const files = writeTinyBert(folder, model.role === "embedder" ? "feature-extraction" : "sequence-classification");
      return [model.repo, { folder, files }];
    }),
  );
  return startMockHub(repos, options);
}

let hub: MockHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

describe("pullModel against a local hub", () => {
  it("downloads config, tokenizer and ONNX files, checks them, and skips intact files next time", async () => {
    hub = await hubWithTinyModels({ pageSize: 2 });
    const modelsDir = tempDir();
    const progress: PullProgress[] = [];
    const pulled = await pullModel({ model: minilm, dtype: "q8", modelsDir, endpoint: hub.url, onProgress: (event) => progress.push(event) });
    expect(pulled.map((file) => [file.file, file.status])).toEqual([
      ["config.json", "downloaded"],
      ["tokenizer.json", "downloaded"],
      ["tokenizer_config.json", "downloaded"],
      ["onnx/model_quantized.onnx", "downloaded"],
    ]);
    const onnx = progress.filter((event) => event.file === "onnx/model_quantized.onnx").at(-1)!;
    expect(onnx.done).toBe(onnx.total);
    expect(hub.requests.some((request) => request.startsWith("GET /cdn/"))).toBe(true); // followed the LFS redirect
    expect(planEmbedder({ modelsDir })).toMatchObject({ kind: "minilm" });

    hub.requests.length = 0;
    const again = await pullModel({ model: minilm, dtype: "q8", modelsDir, endpoint: hub.url });
    expect(again.every((file) => file.status === "up to date")).toBe(true);
    expect(hub.requests.filter((request) => request.includes("/resolve/"))).toEqual([]);
  });

  it("refuses a corrupted file: MODEL_INTEGRITY_FAILED, and nothing is left behind", async () => {
    hub = await hubWithTinyModels({ corrupt: ["onnx/model_quantized.onnx", "tokenizer.json"] });
    const modelsDir = tempDir();
    await expect(pullModel({ model: reranker, dtype: "q8", modelsDir, endpoint: hub.url })).rejects.toMatchObject({
      code: "MODEL_INTEGRITY_FAILED",
      message: expect.stringMatching(/tokenizer\.json: git blob id is [0-9a-f]{40}, the hub lists [0-9a-f]{40}/),
    });
    const folder = modelFolder(modelsDir, reranker);
    expect(readdirSync(folder).sort()).toEqual(["config.json"]);

    await hub.close();
    hub = await hubWithTinyModels({ corrupt: ["onnx/model_quantized.onnx"] });
    await expect(pullModel({ model: reranker, dtype: "q8", modelsDir, endpoint: hub.url })).rejects.toMatchObject({ code: "MODEL_INTEGRITY_FAILED", message: expect.stringMatching(/sha256 is/) });
    expect(existsSync(path.join(folder, "onnx", "model_quantized.onnx"))).toBe(false);
    expect(existsSync(path.join(folder, "onnx", "model_quantized.onnx.part"))).toBe(false);
  });

  it("reports a model or file the hub does not have (404) as MODEL_DOWNLOAD_FAILED", async () => {
    hub = await hubWithTinyModels();
    await expect(pullModel({ model: minilm, dtype: "q8", modelsDir: tempDir(), endpoint: hub.url, revision: "v9" })).rejects.toMatchObject({
      code: "MODEL_DOWNLOAD_FAILED",
      message: expect.stringMatching(/not found on the hub/),
    });
    await expect(pullModel({ model: minilm, dtype: "fp32", modelsDir: tempDir(), endpoint: hub.url })).rejects.toMatchObject({
      code: "MODEL_DOWNLOAD_FAILED",
      message: expect.stringMatching(/has no onnx\/model\.onnx/),
    });
  });

  it("fails, leaving nothing behind, when the hub cannot be reached", async () => {
    const modelsDir = tempDir();
    await expect(pullModel({ model: minilm, dtype: "q8", modelsDir, endpoint: await closedEndpoint() })).rejects.toMatchObject({
      code: "MODEL_DOWNLOAD_FAILED",
      message: expect.stringMatching(/Cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/),
    });
    expect(readdirSync(modelsDir)).toEqual([]);
  });

  it("sends HF_TOKEN as a bearer token", async () => {
    hub = await hubWithTinyModels();
    const modelsDir = tempDir();
    await pullModel({ model: minilm, dtype: "q8", modelsDir, endpoint: hub.url, token: "secret" });
    expect(new Set(hub.authorizations)).toEqual(new Set(["Bearer secret"]));
    expect(JSON.parse(readFileSync(path.join(modelFolder(modelsDir, minilm), "config.json"), "utf8"))).toMatchObject({ model_type: "bert" });
  });
});
