import { z } from "zod";
import { metaRecord } from "./meta-record.js";

/**
 * How far to trust the ranking's shares on this index, measured by `router index` with no labels: one request of each
 * sampled skill is held out of the index and routed, and the scale that gives their own skills the likeliest shares is
 * kept (at most 1: the defaults' sharpness is the most an unlabelled index earns).
 */
const shareScaleSchema = z.object({
  /** Multiplies the ranking logits before the softmax: below 1, this index's skills are harder to tell apart than the defaults assume. */
  scale: z.number().positive(),
  /** Held-out requests it was measured on. */
  samples: z.number().int(),
  /** The share of them whose own skill ranked first. */
  rankedFirst: z.number(),
  /** The index version it was measured on. */
  indexVersion: z.number().int(),
});

export type ShareScale = z.infer<typeof shareScaleSchema>;

export const shareScaleRecord = metaRecord("share_scale", shareScaleSchema);
