import { z } from "zod";
import { metaRecord } from "./meta-record.js";
import { scopeModelSchema } from "./routing-params.js";

/**
 * How `router index` measured this index's offers, with no labels: each sampled skill's request held out of the index
 * and routed (it wants a skill; its own is the right one), the same request with its skill left out (no right skill),
 * and the shipped bank of everyday requests (no skill wanted).
 */
export const offerCalibrationSchema = z.object({
  /** P(the message wants some installed skill), fitted on held-out requests against everyday ones, and the least it must reach for an offer. */
  gate: scopeModelSchema.extend({ threshold: z.number() }).optional(),
  /** An offered skill's share is at least this times the best one's: the most that kept the right skill listed for the chosen share of held-out requests whose skill ranked among the first few. */
  ratio: z.number(),
  /** The share the best skill must reach to be injected without the agent's choice (its injections right at least 95% of the time); null: never. */
  injectShare: z.number().nullable(),
  /** How often an offer built this way held the held-out request's own skill (every held-out request counted). */
  holdsRight: z.number(),
  /** Held-out requests it was measured on, and everyday requests the gate was fitted on (those no skill of the index claims). */
  requests: z.number().int(),
  everyday: z.number().int(),
  /** Share of the everyday requests, and of the held-out requests, the gate lets through (each scored by a gate fitted without it). */
  everydayAnswered: z.number(),
  requestsOffered: z.number(),
  /** The index version it was measured on. */
  indexVersion: z.number().int(),
});

export type OfferCalibration = z.infer<typeof offerCalibrationSchema>;

export const offerCalibrationRecord = metaRecord("offer_calibration", offerCalibrationSchema);
