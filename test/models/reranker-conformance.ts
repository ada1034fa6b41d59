import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Reranker } from "../../src/models/embedder.js";

/** The contract every Reranker keeps: one probability per passage, in order, whatever the batch around it. */
export function runRerankerConformance(name: string, makeReranker: () => Promise<Reranker>): void {
  describe(`Reranker conformance: ${name}`, () => {
    let reranker: Reranker;
    beforeAll(async () => {
      reranker = await makeReranker();
    });
    afterAll(async () => {
      await reranker?.close();
    });

    const query = "why does my pod keep restarting";
    const passages = ["debug a kubernetes pod that crashes", "weather forecast for tomorrow", "send an invoice by email", "fix sql query errors"];

    it("scores each passage with a probability in [0, 1]", async () => {
      expect(reranker.id).toMatch(/\S/);
      const scores = await reranker.score(query, passages);
      expect(scores).toHaveLength(passages.length);
      for (const score of scores) expect(score >= 0 && score <= 1 && Number.isFinite(score)).toBe(true);
      expect(await reranker.score(query, [])).toEqual([]);
    });

    it("keeps each passage's score whatever the order and the other passages", async () => {
      const scores = await reranker.score(query, passages);
      const reversed = await reranker.score(query, [...passages].reverse());
      reversed.reverse().forEach((score, index) => expect(score).toBeCloseTo(scores[index]!, 5));
      const [alone] = await reranker.score(query, [passages[2]!]);
      expect(alone).toBeCloseTo(scores[2]!, 5);
      expect(new Set(scores.map((score) => score.toFixed(6))).size).toBeGreaterThan(1);
    });

    it("truncates very long passages instead of failing", async () => {
      const [score] = await reranker.score(query, ["pod logs ".repeat(2_000)]);
      expect(score! >= 0 && score! <= 1).toBe(true);
    });
  });
}
