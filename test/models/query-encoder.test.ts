import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import type { Embedder } from "../../src/models/embedder.js";
import { MODEL_CATALOGUE, modelFolder } from "../../src/models/model-catalogue.js";
import { createQueryEncoder, queryEncoderOver, type QueryEncoder } from "../../src/models/query-encoder.js";
import { createUseLiteEmbedder } from "../../src/models/use-lite-embedder.js";
import { startServer } from "../../src/server/serve.js";
import { tempDir, writeAgentSkill } from "../helpers/fixtures.js";
import { TINY_HIDDEN, writeTinyBert } from "../helpers/tiny-bert.js";
import { cosine } from "./embedder-conformance.js";

describe("query encoder (worker thread + LRU cache)", () => {
  let encoder: QueryEncoder;
  let inProcess: Embedder;
  beforeAll(async () => {
    [encoder, inProcess] = await Promise.all([createQueryEncoder({ modelsDir: tempDir(), indexEmbedder: "use-lite-512" }), createUseLiteEmbedder()]);
  });
  afterAll(async () => {
    await Promise.all([encoder.close(), inProcess.close()]);
  });

  it("embeds in the worker exactly as the embedder does in process", async () => {
    expect([encoder.id, encoder.dimension]).toEqual(["use-lite-512", 512]);
    const texts = ["why does my pod keep restarting", "email the invoice"];
    const expected = await inProcess.embed(texts);
    expect(cosine(await encoder.embedQuery(texts[0]!), expected[0]!)).toBeGreaterThan(0.99999);
    const many = await encoder.embedMany(texts);
    many.forEach((vector, index) => expect(cosine(vector, expected[index]!)).toBeGreaterThan(0.99999));
  });

  it("serves repeats from the cache, as copies the caller may change", async () => {
    const first = await encoder.embedQuery("cache me");
    first.fill(0);
    const started = performance.now();
    const second = await encoder.embedQuery("cache me");
    expect(performance.now() - started).toBeLessThan(5);
    expect(second.some((value) => value !== 0)).toBe(true);
  });

  it("rejects a non-string query with INVALID_ARGUMENT", async () => {
    await expect(encoder.embedQuery(42 as unknown as string)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("refuses an index built by an embedder that is not here", async () => {
    await expect(createQueryEncoder({ modelsDir: tempDir(), indexEmbedder: "minilm-l6-v2-q8" })).rejects.toMatchObject({ code: "EMBEDDER_MISMATCH" });
  });

  it("batches concurrent queries and embeds a repeated one once", async () => {
    const calls: number[] = [];
    const counting: Embedder = { ...inProcess, embed: (texts) => (calls.push(texts.length), inProcess.embed(texts)), close: async () => {} };
    const batching = queryEncoderOver(counting, 100);
    const texts = Array.from({ length: 20 }, (_, index) => `concurrent query ${index}`);
    const vectors = await Promise.all([...texts, ...texts].map((text) => batching.embedQuery(text)));
    expect(vectors).toHaveLength(40);
    expect(calls.reduce((sum, size) => sum + size, 0)).toBe(20);
    expect(calls.length).toBeLessThanOrEqual(2);
    expect(cosine(vectors[3]!, vectors[23]!)).toBeGreaterThan(0.99999);
  });

  it("runs the MiniLM code path in the worker when auto finds its files", async () => {
    const modelsDir = tempDir("models-");
    writeTinyBert(modelFolder(modelsDir, MODEL_CATALOGUE.minilm), "feature-extraction");
    const minilm = await createQueryEncoder({ modelsDir });
    try {
      expect([minilm.id, minilm.dimension]).toEqual(["minilm-l6-v2-q8", TINY_HIDDEN]);
      const [vector] = await minilm.embedMany(["why does my pod keep restarting"]);
      expect(vector).toHaveLength(TINY_HIDDEN);
    } finally {
      await minilm.close();
    }
  });

  it("rejects calls after close", async () => {
    const closing = await createQueryEncoder({ modelsDir: tempDir(), embedder: "offline" });
    await closing.close();
    await expect(closing.embedQuery("too late")).rejects.toMatchObject({ code: "MODEL_FAILED" });
  });
});

describe("a server using the query encoder", () => {
  it("keeps answering health checks while the worker embeds", async () => {
    const root = tempDir();
    writeAgentSkill(root, "alpha");
    const db = path.join(tempDir(), "router.db");
    await runIndex({ paths: [root], db, embedder: await createUseLiteEmbedder() });
    const server = await startServer({ db, host: "127.0.0.1", port: 0 });
    const encoder = await createQueryEncoder({ modelsDir: tempDir(), embedder: "offline" });
    try {
      const texts = Array.from({ length: 120 }, (_, index) => `request ${index}: ${"read the deployment logs and restart the failing pods ".repeat(6)}`);
      const started = performance.now();
      let embedding = true;
      const work = encoder.embedMany(texts).finally(() => (embedding = false));
      const latencies: number[] = [];
      while (embedding) {
        const sent = performance.now();
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        latencies.push(performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await work;
      const embedMs = performance.now() - started;
      // The embedding takes far longer than any health check waited: the event loop was never blocked by it.
      expect(latencies.length).toBeGreaterThan(3);
      expect(Math.max(...latencies)).toBeLessThan(Math.min(250, embedMs / 2));
    } finally {
      await encoder.close();
      await server.close();
    }
  });
});
