import { describe, expect, it } from "vitest";
import { createEmbedder } from "../../src/models/create-embedder.js";
import { MODEL_CATALOGUE, modelFolder } from "../../src/models/model-catalogue.js";
import { createQueryEncoder } from "../../src/models/query-encoder.js";
import { embedderReads, mostlyLatin } from "../../src/route/embedder-coverage.js";
import { createRouter } from "../../src/route/router.js";
import { tempDir } from "../helpers/fixtures.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { writeTinyBert } from "../helpers/tiny-bert.js";

const CHINESE = "我的容器一直重启，怎么排查";

describe("what the embedder reads", () => {
  it("Latin text for the English embedders, every script for the multilingual one", () => {
    expect([mostlyLatin("why does my pod restart"), mostlyLatin("👍 42"), mostlyLatin(`${CHINESE} kubectl`)]).toEqual([true, true, false]);
    expect(embedderReads(CHINESE, "use-lite-512")).toBe(false);
    expect(embedderReads(CHINESE, "minilm-l6-v2-q8")).toBe(false);
    expect(embedderReads(CHINESE, "multilingual-minilm-l12-v2-fp32")).toBe(true);
    expect(embedderReads("why does my pod restart", "use-lite-512")).toBe(true);
  });

  it("on a multilingual index, a Chinese request is compared densely and still read in English by BM25", async () => {
    const modelsDir = tempDir("models-");
    writeTinyBert(modelFolder(modelsDir, MODEL_CATALOGUE.multilingual), "feature-extraction");
    const embedder = await createEmbedder({ modelsDir, embedder: "multilingual" });
    const { db } = await indexSkillSet(tempDir(), embedder);
    await embedder.close();
    const router = await createRouter({ db, queryEncoder: await createQueryEncoder({ modelsDir, embedder: "multilingual" }) });
    try {
      const scored = await router.candidates(CHINESE);
      expect(scored.readable).toBe(true);
      // Its own similarities, not one stand-in value for every candidate.
      expect(new Set(scored.evidence.map((item) => item.signals.q2d)).size).toBeGreaterThan(1);
      const k8s = scored.evidence[scored.names.indexOf("k8s-debug")]!;
      expect(k8s.bm25Raw).toBeGreaterThan(0);
    } finally {
      await router.close();
    }
  });
});
