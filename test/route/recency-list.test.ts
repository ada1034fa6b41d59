import { describe, expect, it } from "vitest";
import { RecencyList } from "../../src/route/recency-list.js";

describe("the recency list", () => {
  it("gives the least recently used item not skipped, after touches and removals", () => {
    const list = new RecencyList(5);
    const none = () => false;
    expect(list.oldest(none)).toBeUndefined();
    for (const item of [3, 1, 4, 0]) list.touch(item);
    expect(list.oldest(none)).toBe(3);
    list.touch(3);
    expect(list.oldest(none)).toBe(1);
    expect(list.oldest((item) => item === 1 || item === 4)).toBe(0);
    list.remove(1);
    list.remove(2);
    expect(list.oldest(none)).toBe(4);
    list.remove(4);
    list.remove(0);
    list.remove(3);
    expect(list.oldest(none)).toBeUndefined();
    list.touch(2);
    expect(list.oldest(none)).toBe(2);
  });
});
