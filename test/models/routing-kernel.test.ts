import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileRoutingKernel, kernelModuleText } from "../../scripts/build-routing-kernel.js";
import { dotRow } from "../../src/models/vector-math.js";
import { HammingDistances } from "../../src/models/hamming-distances.js";
import { VectorSlots } from "../../src/models/vector-slots.js";

const vector = (dimension: number, seed: number) => Float32Array.from({ length: dimension }, (_, at) => Math.sin(seed * 13 + at * 7));

describe("the routing kernel", () => {
  it("compares the query with each slot as a dot product, for a dimension that is not a whole number of SIMD lanes", () => {
    // 6: fewer lanes than one four-lane step; 28: one step and three lanes after it.
    for (const dimension of [6, 28]) {
      const slots = new VectorSlots(dimension);
      const stored = [1, 2, 3].map((seed) => vector(dimension, seed));
      slots.reserve(4);
      stored.forEach((value, at) => slots.write(at + 1, value));
      const query = vector(dimension, 9);
      slots.setQuery(query);
      stored.forEach((value, at) => expect(slots.similarity(at + 1)).toBeCloseTo(dotRow(query, value, 0, dimension), 5));
    }
  });

  it("keeps what it holds when its memory grows", () => {
    const slots = new VectorSlots(512);
    slots.reserve(2);
    slots.write(1, vector(512, 1));
    // 100 more slots of 2 KiB are several more 64 KiB pages.
    slots.reserve(102);
    slots.write(101, vector(512, 2));
    slots.setQuery(vector(512, 3));
    expect(slots.similarity(1)).toBeCloseTo(dotRow(vector(512, 3), vector(512, 1), 0, 512), 4);
    expect(slots.similarity(101)).toBeCloseTo(dotRow(vector(512, 3), vector(512, 2), 0, 512), 4);
  });

  it("lends unpadded slots as one array to fill in place, and padded ones not at all", () => {
    const slots = new VectorSlots(8);
    const rows = slots.rows(1, 3)!;
    expect(rows).toHaveLength(24);
    [1, 2, 3].forEach((seed, at) => rows.set(vector(8, seed), at * 8));
    slots.setQuery(vector(8, 9));
    [1, 2, 3].forEach((seed, at) => expect(slots.similarity(at + 1)).toBeCloseTo(dotRow(vector(8, 9), vector(8, seed), 0, 8), 5));
    expect(new VectorSlots(6).rows(1, 3)).toBeUndefined();
  });

  it("counts the bits in which each code differs from the query's, padded or not", () => {
    const bitsSet = (value: number) => value.toString(2).replaceAll("0", "").length;
    for (const words of [3, 16]) {
      const rows = 50;
      const codes = Uint32Array.from({ length: rows * words }, (_, at) => Math.imul(at + 1, 2_654_435_761) >>> 0);
      const query = Uint32Array.from({ length: words }, (_, at) => Math.imul(at + 7, 40_503) >>> 0);
      const expected = Array.from({ length: rows }, (_, row) => Array.from(query, (word, at) => bitsSet((codes[row * words + at]! ^ word) >>> 0)).reduce((sum, bits) => sum + bits, 0));
      expect([...new HammingDistances(codes, rows, words).distances(query)]).toEqual(expected);
    }
  });

  it("runs the kernel compiled from its source", async () => {
    const generated = readFileSync(new URL("../../src/models/routing-kernel-wasm.ts", import.meta.url), "utf8");
    expect(generated).toBe(kernelModuleText(await compileRoutingKernel()));
  });
});
