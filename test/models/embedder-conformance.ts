import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Embedder } from "../../src/models/embedder.js";

/**
 * The contract every Embedder keeps, run by each implementation's test file (as Hono runs one router suite
 * for every router): shapes, unit length, order, batching that changes nothing, and odd inputs.
 */
export function runEmbedderConformance(name: string, makeEmbedder: () => Promise<Embedder>): void {
  describe(`Embedder conformance: ${name}`, () => {
    let embedder: Embedder;
    beforeAll(async () => {
      embedder = await makeEmbedder();
    });
    afterAll(async () => {
      await embedder?.close();
    });

    it("names itself and has a positive dimension", () => {
      expect(embedder.id).toMatch(/\S/);
      expect(Number.isInteger(embedder.dimension) && embedder.dimension > 0).toBe(true);
    });

    it("returns one unit-length Float32Array per text, in order", async () => {
      const texts = ["why does my pod keep restarting", "send the invoice by email", "what is the weather forecast"];
      const vectors = await embedder.embed(texts);
      expect(vectors).toHaveLength(texts.length);
      for (const vector of vectors) {
        expect(vector).toBeInstanceOf(Float32Array);
        expect(vector).toHaveLength(embedder.dimension);
        expect(norm(vector)).toBeCloseTo(1, 4);
      }
      const alone = await Promise.all(texts.map(async (text) => (await embedder.embed([text]))[0]!));
      alone.forEach((vector, index) => expect(cosine(vector, vectors[index]!)).toBeGreaterThan(0.9999));
    });

    it("gives the same vector whatever the batch: size, neighbours and their lengths", async () => {
      const short = "fix the database";
      const long = `debug the crash of the deployment and read the logs of every pod in the cluster ${"again ".repeat(40)}`;
      const [alone] = await embedder.embed([short]);
      const mixed = await embedder.embed([long, short, "a", long]);
      expect(cosine(alone!, mixed[1]!)).toBeGreaterThan(0.9999);
      expect(cosine(mixed[0]!, mixed[3]!)).toBeGreaterThan(0.9999);
    });

    it("embeds more texts than one batch holds", async () => {
      const texts = Array.from({ length: 150 }, (_, index) => `request number ${index} about files and logs`);
      const vectors = await embedder.embed(texts);
      expect(vectors).toHaveLength(150);
      expect(cosine(vectors[149]!, (await embedder.embed([texts[149]!]))[0]!)).toBeGreaterThan(0.9999);
    });

    it("tells different texts apart and repeats itself for the same text", async () => {
      const [a, b, again] = await embedder.embed(["read the error log", "forecast rain tomorrow", "read the error log"]);
      expect(cosine(a!, again!)).toBeGreaterThan(0.99999);
      expect(cosine(a!, b!)).toBeLessThan(0.999);
    });

    it("handles nothing, empty and blank texts, and very long text", async () => {
      expect(await embedder.embed([])).toEqual([]);
      const vectors = await embedder.embed(["", "   \n\t ", "x".repeat(20_000), "word ".repeat(5_000), "¿Qué tal? 😀 日本語"]);
      for (const vector of vectors) {
        expect(vector.every(Number.isFinite)).toBe(true);
        expect(norm(vector)).toBeCloseTo(1, 4);
      }
    });
  });
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot / (norm(a) * norm(b));
}

function norm(vector: Float32Array): number {
  let sum = 0;
  for (const value of vector) sum += value * value;
  return Math.sqrt(sum);
}
