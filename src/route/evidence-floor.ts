import type { IndexDatabase } from "../store/database.js";
import { deleteMetaValue, readMetaJson, writeMetaJson } from "../store/index-meta.js";

const META_KEY = "evidence_floor";

/**
 * What the best candidate must beat for a decision to inject, measured on this index by `router index` with no
 * labels: each sampled skill's own synthetic query routed with that skill left out, so the best candidate is
 * wrong by construction. Scores that such requests reach are no evidence.
 */
export interface EvidenceFloor {
  /** BM25 (squashed) of a heuristic-manifest skill: a quantile of the best wrong candidates' BM25. */
  bm25: number;
  /** The same for queries in scripts the embedder cannot read (CJK text shares more terms), when enough were measured. */
  bm25OtherScripts?: number;
  /** Query-to-query similarity that counts without a lexical hit: the median of the best wrong candidates'. */
  q2qMax: number;
  /** Requests it was measured on. */
  samples: number;
  /** The index version it was measured on. */
  indexVersion: number;
  /** The router release that measured it (absent in floors written before it was recorded): another one measures it again. */
  routerVersion?: string;
}

export function readEvidenceFloor(db: IndexDatabase): EvidenceFloor | undefined {
  return readMetaJson<EvidenceFloor>(db, META_KEY);
}

export function writeEvidenceFloor(db: IndexDatabase, floor: EvidenceFloor): void {
  writeMetaJson(db, META_KEY, floor);
}

/** An index too small to measure routes without a floor (a stale one would describe other skills). */
export function clearEvidenceFloor(db: IndexDatabase): void {
  deleteMetaValue(db, META_KEY);
}
