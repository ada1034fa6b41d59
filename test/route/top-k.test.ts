import { describe, expect, it } from "vitest";
import { topEntries, topK } from "../../src/route/top-k.js";

describe("top-k selection", () => {
  it("keeps the best scores, best first, ties to the lower index, whatever order they come in", () => {
    const scores = [1, 3, 3, 0, 2, 3];
    expect(topK(scores, 3)).toEqual([1, 2, 5]);
    expect(topK(scores, 3, (index) => index !== 2)).toEqual([1, 5, 4]);
    const shuffled: [number, number][] = [5, 0, 3, 2, 4, 1].map((index) => [index, scores[index]!]);
    expect(topEntries(shuffled, 4)).toEqual([
      [1, 3],
      [2, 3],
      [5, 3],
      [4, 2],
    ]);
    expect(topEntries(new Map(shuffled), 2, (index) => index < 3)).toEqual([
      [1, 3],
      [2, 3],
    ]);
    expect(topEntries(shuffled, 0)).toEqual([]);
  });
});
