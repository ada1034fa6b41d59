import { z } from "zod";
import { metaRecord } from "./meta-record.js";

/**
 * What the best candidate must beat for a decision to inject, measured on this index by `router index` with no
 * labels: each sampled skill's own synthetic query routed with that skill left out, so the best candidate is
 * wrong by construction. Scores that such requests reach are no evidence.
 */
export const evidenceFloorSchema = z.object({
  /** BM25 (squashed) of a heuristic-manifest skill: a quantile of the best wrong candidates' BM25. */
  bm25: z.number(),
  /** The same for queries in scripts the embedder cannot read (CJK text shares more terms), when enough were measured. */
  bm25OtherScripts: z.number().optional(),
  /** Query-to-query similarity that counts without a lexical hit: the median of the best wrong candidates'. */
  q2qMax: z.number(),
  /** Requests it was measured on. */
  samples: z.number().int(),
  /** The index version it was measured on. */
  indexVersion: z.number().int(),
  /** The router release that measured it (absent in floors written before it was recorded): another one measures it again. */
  routerVersion: z.string().optional(),
});

export type EvidenceFloor = z.infer<typeof evidenceFloorSchema>;

export const evidenceFloorRecord = metaRecord("evidence_floor", evidenceFloorSchema);
