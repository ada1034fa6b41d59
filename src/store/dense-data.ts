import { z } from "zod";
import { routingPart, type PartArrays } from "./routing-data.js";

/** Per skill, in name order: its centroid (the mean of its description and query vectors), their sign-bit codes and its number of queries. */
const DENSE_LAYOUT = { centroids: "f32", codes: "u32", queryCounts: "u32" } as const;

const denseValues = z.object({
  /** The skills the arrays describe, in order: a version loads only data written for exactly its skills. */
  names: z.array(z.string()),
  /** Embedded texts in the index. */
  textCount: z.number().int().nonnegative(),
});

export type DenseArrays = PartArrays<typeof DENSE_LAYOUT>;
export type DenseValues = z.infer<typeof denseValues>;

// Format 3: the first written with a declared layout (format 2 added the per-skill query counts).
export const denseData = routingPart("dense", 3, DENSE_LAYOUT, denseValues);
