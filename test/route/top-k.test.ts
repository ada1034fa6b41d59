import { describe, expect, it } from "vitest";
import { largestValues, topByKey, topK } from "../../src/route/top-k.js";

describe("top-k selection", () => {
  it("keeps the best scores, best first, ties to the lower index, whatever order they come in", () => {
    const scores = [1, 3, 3, 0, 2, 3];
    expect(topK(scores, 3)).toEqual([1, 2, 5]);
    expect(topK(scores, 3, (index) => index !== 2)).toEqual([1, 5, 4]);
    // The same scores keyed in another order: positions come back, read as (key, score) pairs.
    const keys = Int32Array.from([5, 0, 3, 2, 4, 1]);
    const keyed = Float64Array.from(keys, (index) => scores[index]!);
    const topEntries = (k: number, include?: (key: number) => boolean) => topByKey(keys, keyed, k, include).map((at) => [keys[at], keyed[at]]);
    expect(topEntries(4)).toEqual([
      [1, 3],
      [2, 3],
      [5, 3],
      [4, 2],
    ]);
    expect(topEntries(2, (index) => index < 3)).toEqual([
      [1, 3],
      [2, 3],
    ]);
    expect(topEntries(0)).toEqual([]);
  });

  it("keeps the k largest values, largest first, as the head of a descending sort", () => {
    const values = [0.2, 0.9, -0.1, 0.9, 0.5, 0.7, 0.2];
    for (const k of [0, 1, 3, 5, 7, 10]) expect(largestValues(values, k)).toEqual([...values].sort((a, b) => b - a).slice(0, k));
  });
});
