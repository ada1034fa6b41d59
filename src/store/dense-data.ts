import { z } from "zod";
import { routingPart, type PartArrays } from "./routing-data.js";

/**
 * Per skill, in name order: its centroid (the mean of its description, query and agreed usage vectors), their sign-bit
 * codes, and how many texts of each kind it has after its description (store/vectors.ts TEXT_KINDS: queries, usage,
 * lone usage, negatives; usage negatives are the rest), so the query path tells them apart without reading the texts.
 */
const DENSE_LAYOUT = { centroids: "f32", codes: "u32", queryCounts: "u32", usageCounts: "u32", loneCounts: "u32", negativeCounts: "u32" } as const;

const denseValues = z.object({
  /** The skills the arrays describe, in order: a version loads only data written for exactly its skills. */
  names: z.array(z.string()),
  /** Embedded texts in the index. */
  textCount: z.number().int().nonnegative(),
});

export type DenseArrays = PartArrays<typeof DENSE_LAYOUT>;
export type DenseValues = z.infer<typeof denseValues>;

// Format 4: texts from use (format 3 was the first written with a declared layout, 2 added the per-skill query counts).
export const denseData = routingPart("dense", 4, DENSE_LAYOUT, denseValues);
