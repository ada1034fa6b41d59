import type { IndexDatabase } from "../store/database.js";
import { deleteMetaValue, readMetaJson, writeMetaJson } from "../store/index-meta.js";

const META_KEY = "share_scale";

/**
 * How far to trust the ranking's shares on this index, measured by `router index` with no labels: one request of each
 * sampled skill is held out of the index and routed, and the scale that gives their own skills the likeliest shares is
 * kept (at most 1: the defaults' sharpness is the most an unlabelled index earns).
 */
export interface ShareScale {
  /** Multiplies the ranking logits before the softmax: below 1, this index's skills are harder to tell apart than the defaults assume. */
  scale: number;
  /** Held-out requests it was measured on. */
  samples: number;
  /** The share of them whose own skill ranked first. */
  rankedFirst: number;
  /** The index version it was measured on. */
  indexVersion: number;
}

export function readShareScale(db: IndexDatabase): ShareScale | undefined {
  return readMetaJson<ShareScale>(db, META_KEY);
}

export function writeShareScale(db: IndexDatabase, scale: ShareScale): void {
  writeMetaJson(db, META_KEY, scale);
}

/** An index too small (or without requests to hold out) keeps the defaults' shares. */
export function clearShareScale(db: IndexDatabase): void {
  deleteMetaValue(db, META_KEY);
}
