import { z } from "zod";
import { metaRecord } from "./meta-record.js";
import { scopeModelSchema } from "./routing-params.js";

/**
 * What `router index` learned of this index's requests with no labels: its request-written skills' own requests, held
 * out and routed, against requests no skill of the index answers (the same requests with their skill left out, a
 * skill's own near misses that reach it, everyday chat). Where the defaults' in-scope model tells them apart about as
 * well as a model fitted on them, the defaults stay; else the fitted model and its threshold serve those skills.
 */
const indexScopeSchema = z.object({
  /** The model fitted on the held-out requests, when chosen over the defaults'. */
  model: scopeModelSchema.optional(),
  /** Its threshold: the P(in scope) that the chosen share of held-out requests ranked first reach. */
  threshold: z.number().optional(),
  /** Held-out requests whose own skill ranked first, and requests no skill answers. */
  positives: z.number().int(),
  negatives: z.number().int(),
  /** ROC AUC of P(in scope), positives against negatives: the defaults' model, and the fitted one (cross-validated). */
  auc: z.object({ defaults: z.number(), fitted: z.number() }),
  /** The index version it was measured on. */
  indexVersion: z.number().int(),
});

export type IndexScope = z.infer<typeof indexScopeSchema>;

export const indexScopeRecord = metaRecord("index_scope", indexScopeSchema);
