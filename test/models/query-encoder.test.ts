import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import type { Embedder } from "../../src/models/embedder.js";
import { MODEL_CATALOGUE, modelFolder } from "../../src/models/model-catalogue.js";
import { startEmbedderWorker } from "../../src/models/model-worker-client.js";
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

  it("serves repeats from the cache without embedding them again, as copies the caller may change", async () => {
    const calls: string[][] = [];
    const counting: Embedder = {
      ...inProcess,
      embed: (texts) => {
        calls.push([...texts]);
        return inProcess.embed(texts);
      },
      close: async () => {},
    };
    const cached = queryEncoderOver(counting, 100);
    const first = await cached.embedQuery("cache me");
    first.fill(0);
    const second = await cached.embedQuery("cache me");
    expect(calls).toEqual([["cache me"]]);
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
    const counting: Embedder = {
      ...inProcess,
      embed: (texts) => {
        calls.push(texts.length);
        return inProcess.embed(texts);
      },
      close: async () => {},
    };
    const batching = queryEncoderOver(counting, 100, { maxBatch: 8 });
    const texts = Array.from({ length: 20 }, (_, index) => `concurrent query ${index}`);
    const vectors = await Promise.all([...texts, ...texts].map((text) => batching.embedQuery(text)));
    expect(vectors).toHaveLength(40);
    expect(calls).toEqual([8, 8, 4]);
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

  it("refuses a worker count or batch cap below 1", async () => {
    await expect(createQueryEncoder({ modelsDir: tempDir(), embedder: "offline", workers: 0 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(() => queryEncoderOver(inProcess, 10, { maxBatch: 0 })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });

  it("rejects calls after close", async () => {
    const closing = await createQueryEncoder({ modelsDir: tempDir(), embedder: "offline" });
    await closing.close();
    await expect(closing.embedQuery("too late")).rejects.toMatchObject({ code: "MODEL_FAILED" });
  });
});

/** A real embedder whose calls are recorded and held until `open()`: the test decides when a batch in flight finishes. */
function gated(embedder: Embedder) {
  const calls: string[][] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const held: Embedder = {
    id: embedder.id,
    dimension: embedder.dimension,
    async embed(texts) {
      calls.push(texts);
      await gate;
      return embedder.embed(texts);
    },
    close: () => embedder.close(),
  };
  return { embedder: held, calls, open };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("micro-batching over several worker threads", () => {
  let workers: Embedder[];
  let inProcess: Embedder;
  beforeAll(async () => {
    [inProcess, ...workers] = await Promise.all([createUseLiteEmbedder(), startEmbedderWorker({ embedder: "offline" }), startEmbedderWorker({ embedder: "offline" })]);
  });
  afterAll(async () => {
    await Promise.all([inProcess, ...workers].map((embedder) => embedder.close()));
  });

  it("runs several workers, each embedding as the model does in process", async () => {
    const encoder = await createQueryEncoder({ modelsDir: tempDir(), embedder: "offline", workers: 2, maxBatch: 4, batchWindowMs: 0 });
    try {
      const texts = Array.from({ length: 12 }, (_, index) => `restart the failing pod number ${index}`);
      const [vectors, expected] = await Promise.all([encoder.embedMany(texts), inProcess.embed(texts)]);
      vectors.forEach((vector, index) => expect(cosine(vector, expected[index]!)).toBeGreaterThan(0.99999));
    } finally {
      await encoder.close();
    }
  });

  it("gives each idle worker a batch of at most maxBatch, and the rest to whichever frees first", async () => {
    const [a, b] = workers.map(gated);
    const encoder = queryEncoderOver([a!.embedder, b!.embedder], 100, { maxBatch: 4, batchWindowMs: 0 });
    const texts = Array.from({ length: 10 }, (_, index) => `spread query ${index}`);
    const all = encoder.embedMany(texts);
    await nextTurn();
    expect([a!.calls, b!.calls].map((calls) => calls.map((batch) => batch.length))).toEqual([[4], [4]]);
    a!.open();
    b!.open();
    const vectors = await all;
    expect(vectors).toHaveLength(10);
    const batches = [...a!.calls, ...b!.calls];
    expect(batches.every((batch) => batch.length <= 4)).toBe(true);
    expect(batches.flat().sort()).toEqual([...texts].sort());
  });

  it("sends a lone query at once, and holds later ones (at most the window) while a batch is in flight, to go together", async () => {
    const [a, b] = workers.map(gated);
    const encoder = queryEncoderOver([a!.embedder, b!.embedder], 100, { maxBatch: 32, batchWindowMs: 60_000 });
    const calls = () => [...a!.calls, ...b!.calls];
    const first = encoder.embedQuery("the first query finds nothing in flight");
    await nextTurn();
    expect(calls()).toEqual([["the first query finds nothing in flight"]]);
    const second = encoder.embedQuery("the second arrives while it is embedded");
    await nextTurn();
    const third = encoder.embedQuery("the third a moment later");
    await nextTurn();
    // An idle worker is there, but a batch is in flight: the two wait for each other instead of going one by one.
    expect(calls()).toHaveLength(1);
    a!.open();
    b!.open();
    await Promise.all([first, second, third]);
    expect(calls().map(String).sort()).toEqual(["the first query finds nothing in flight", "the second arrives while it is embedded,the third a moment later"]);
  });

  it("sends a waiting batch when its window is over, though another is still in flight", async () => {
    const [a, b] = workers.map(gated);
    const encoder = queryEncoderOver([a!.embedder, b!.embedder], 100, { maxBatch: 32, batchWindowMs: 20 });
    const first = encoder.embedQuery("held in flight");
    await nextTurn();
    const second = encoder.embedQuery("waits one window");
    await vi.waitFor(() => expect([...a!.calls, ...b!.calls].map(String).sort()).toEqual(["held in flight", "waits one window"]));
    a!.open();
    b!.open();
    await Promise.all([first, second]);
  });
});

describe("a caller that gives up", () => {
  let worker: Embedder;
  beforeAll(async () => {
    worker = await startEmbedderWorker({ embedder: "offline" });
  });
  afterAll(() => worker.close());

  it("is answered with its signal's reason at once, and a text nobody waits for any more is never embedded", async () => {
    const only = gated(worker);
    const encoder = queryEncoderOver(only.embedder, 100, { maxBatch: 4, batchWindowMs: 0 });
    const busy = encoder.embedQuery("keeps the one worker busy");
    await nextTurn();
    const timedOut = new AbortController();
    const gaveUp = encoder.embedQuery("its request timed out while queued", timedOut.signal);
    const shared = new AbortController();
    const sharedByTwo = [encoder.embedQuery("asked twice, one caller gives up", shared.signal), encoder.embedQuery("asked twice, one caller gives up")];
    await nextTurn();
    timedOut.abort(new Error("deadline"));
    shared.abort(new Error("deadline"));
    await expect(gaveUp).rejects.toThrow("deadline");
    await expect(sharedByTwo[0]).rejects.toThrow("deadline");
    only.open();
    await busy;
    await sharedByTwo[1];
    // The abandoned text never reached the worker; the shared one did, for the caller still waiting.
    expect(only.calls.flat()).toEqual(["keeps the one worker busy", "asked twice, one caller gives up"]);
    await expect(encoder.embedQuery("never asked", AbortSignal.abort(new Error("already over")))).rejects.toThrow("already over");
  });
});

describe("query encoder errors", () => {
  it("fails only the text the model cannot embed; a batch of such texts fails each caller with the error", async () => {
    const modelsDir = tempDir("models-");
    const folder = modelFolder(modelsDir, MODEL_CATALOGUE.minilm);
    writeTinyBert(folder, "feature-extraction");
    // A vocabulary entry past the embedding table: onnxruntime fails the whole batch holding that word.
    const tokenizer = JSON.parse(readFileSync(path.join(folder, "tokenizer.json"), "utf8")) as { model: { vocab: Record<string, number> } };
    tokenizer.model.vocab["explode"] = 100_000;
    writeFileSync(path.join(folder, "tokenizer.json"), JSON.stringify(tokenizer));
    const encoder = await createQueryEncoder({ modelsDir, maxBatch: 8 });
    try {
      const mixed = await Promise.allSettled(["my pod keeps restarting", "explode the cluster", "send the invoice"].map((text) => encoder.embedQuery(text)));
      expect(mixed.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect((mixed[1] as PromiseRejectedResult).reason).toMatchObject({ code: "MODEL_FAILED", message: expect.stringMatching(/Gather.*out of data bounds/) });
      const failing = await Promise.allSettled(["explode one", "explode two"].map((text) => encoder.embedQuery(text)));
      expect(failing.map((outcome) => (outcome as PromiseRejectedResult).reason?.code)).toEqual(["MODEL_FAILED", "MODEL_FAILED"]);
      // The worker is still fine afterwards.
      expect(await encoder.embedQuery("read the logs")).toHaveLength(TINY_HIDDEN);
    } finally {
      await encoder.close();
    }
  });

  it("on close, rejects queued and in-flight calls with MODEL_FAILED, and every later call", async () => {
    const encoder = await createQueryEncoder({ modelsDir: tempDir(), embedder: "offline", maxBatch: 4 });
    const settled = Promise.allSettled(Array.from({ length: 40 }, (_, index) => encoder.embedQuery(`closing query ${index}`)));
    await nextTurn();
    await encoder.close();
    const outcomes = await settled;
    const rejected = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
    expect(rejected.length).toBeGreaterThanOrEqual(36);
    expect(new Set(rejected.map((outcome) => outcome.reason.code))).toEqual(new Set(["MODEL_FAILED"]));
    await expect(encoder.embedQuery("closing query 0")).rejects.toMatchObject({ code: "MODEL_FAILED" });
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
      let embedding = true;
      const work = encoder.embedMany(texts).finally(() => (embedding = false));
      // Health checks sent and answered one after another while the batch is embedded: each answer needs the event loop.
      let answeredWhileEmbedding = 0;
      while (embedding) {
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        if (embedding) answeredWhileEmbedding++;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect((await work).length).toBe(texts.length);
      expect(answeredWhileEmbedding).toBeGreaterThan(3);
    } finally {
      await encoder.close();
      await server.close();
    }
  });
});
