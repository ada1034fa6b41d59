import { z } from "zod";
import { evidenceFloorSchema } from "./evidence-floor.js";
import { metaRecord } from "./meta-record.js";

/** Per-candidate features of the ranking model; `router fit` learns one weight per feature. */
export const FEATURES = ["q2q_max", "q2q_topk", "q2d", "q2c", "bm25", "bm25_rel", "keywords", "phrases", "negative", "q2q_gap", "knn_vote", "q2q_rr", "bm25_rr", "q2d_rr"] as const;

/** Query-level features of the in-scope model, read off the best candidate. */
export const SCOPE_FEATURES = ["top_logit", "logit_gap", "q2q_max", "q2q_topk", "q2c", "bm25", "keywords", "abstain_sim", "heuristic", "heuristic_q2q"] as const;

export type Feature = (typeof FEATURES)[number];
export type ScopeFeature = (typeof SCOPE_FEATURES)[number];

/** One weight per name, every name present. */
function weightsOf<const T extends readonly string[]>(names: T) {
  return z.object(Object.fromEntries(names.map((name) => [name, z.number()])) as { [K in T[number]]: z.ZodNumber });
}

/**
 * Two models: a conditional logit ranks the candidates (which skill, if one applies) and a logistic model
 * says whether any skill applies at all. A candidate's confidence is P(in scope) x P(this one | in scope).
 */
/** A logistic in-scope model: P(some skill applies) from the best candidate's scope features. */
export const scopeModelSchema = z.object({ weights: weightsOf(SCOPE_FEATURES), bias: z.number() });

/** The offer rule's parameters (store/offer-calibration.ts says how `router index` measures them). */
export const offerParamsSchema = z.object({
  gate: scopeModelSchema.extend({ threshold: z.number() }).optional(),
  ratio: z.number(),
  injectShare: z.number().nullable(),
  holdsRight: z.number().nullable(),
});

export const routingParamsSchema = z.object({
  ranking: weightsOf(FEATURES),
  scope: scopeModelSchema,
  /**
   * The in-scope model and threshold for request-written manifests (LLM, imported, hand-written, example queries) that
   * `router index` fitted on this index's own held-out requests, where the defaults' model did not separate them; the
   * `scope` model then serves heuristic manifests only.
   */
  requestScope: scopeModelSchema.extend({ threshold: z.number() }).optional(),
  /** Inject only when P(in scope) reaches this (per-skill values override it for their skill). */
  threshold: z.number(),
  /** The threshold when the best skill's manifest is heuristic (its similarities run on another scale). */
  heuristicThreshold: z.number(),
  /** ... and the best candidate's confidence leads the runner-up's by at least this. */
  minMargin: z.number(),
  skillThresholds: z.record(z.string(), z.number()),
  /** Evidence the best candidate must have (measured on the index by `router index`); none when unknown. */
  evidenceFloor: evidenceFloorSchema.optional(),
  /** Multiplies the ranking logits before the shares are taken (measured on the index by `router index`); 1 when absent. */
  shareScale: z.number().optional(),
  /** How offers are built and when the best skill is injected without the agent's choice (measured by `router index`); the defaults when absent. */
  offer: offerParamsSchema.optional(),
  /** Similarity scales differ between embedders: parameters are only valid for the one they were fitted with. */
  embedder: z.string().nullable(),
  /** Where these parameters came from. */
  origin: z.string(),
});

export type RoutingParams = z.infer<typeof routingParamsSchema>;
export type ScopeModel = z.infer<typeof scopeModelSchema>;
export type OfferParams = z.infer<typeof offerParamsSchema>;

/** What `router fit` learned from the index's labelled cases (the key predates the name). */
export const fittedParamsRecord = metaRecord("fusion", routingParamsSchema);
