import type { QueryEncoder } from "../models/query-encoder.js";
import { DEFAULT_PARAMS, paramsFor } from "../route/index-params.js";
import type { IndexDatabase } from "../store/database.js";
import { evidenceFloorRecord } from "../store/evidence-floor.js";
import { readMeta } from "../store/index-meta.js";
import { indexScopeRecord, type IndexScope } from "../store/index-scope.js";
import { shareScaleRecord } from "../store/share-scale.js";
import { VERSION } from "../version.js";
import { calibrateEvidence, MIN_CALIBRATION_SKILLS, type EvidenceCalibration } from "./calibrate-evidence.js";
import { fitIndexScope } from "./fit-index-scope.js";
import { measureShareScale, type ShareScaleMeasure } from "./measure-share-scale.js";
import { calibrateOffer } from "./calibrate-offer.js";
import { offerCalibrationRecord, type OfferCalibration } from "../store/offer-calibration.js";

/** What `router index` measured of an index with no labels. */
export interface IndexCalibration {
  /** The evidence floor and what the index now routes (none below MIN_CALIBRATION_SKILLS skills). */
  evidence: EvidenceCalibration | undefined;
  /** How sharp the default ranking's shares are on this index (none when too few skills have requests to hold out). */
  shareScale: ShareScaleMeasure | undefined;
  /** The in-scope model for its request-written manifests (none when too few skills have requests to hold out). */
  scope: IndexScope | undefined;
  /** How its offers are built and when it injects without the agent (none when too few skills have requests to hold out). */
  offer: OfferCalibration | undefined;
}

export { MIN_CALIBRATION_SKILLS };

/** A changed index, or one measured by another release of the router (or when asked), is measured again. */
export function needsCalibration(db: IndexDatabase, indexVersion: number, recalibrate: boolean): boolean {
  const floor = evidenceFloorRecord.read(db);
  return recalibrate || floor?.indexVersion !== indexVersion || floor.routerVersion !== VERSION;
}

/**
 * Measures the share scale, the evidence floor and the in-scope model on the index as `db` reads it now, and stores them there: inside
 * `router index`'s transaction, they commit with the skills they were measured on.
 */
export async function calibrateIndex(
  db: IndexDatabase,
  encoder: QueryEncoder,
  indexVersion: number,
  onProgress?: (stage: "shares" | "calibrate" | "scope" | "offer", done: number, total: number) => void,
): Promise<IndexCalibration> {
  // What earlier runs fitted describes other skills: every measurement starts from the defaults.
  indexScopeRecord.clear(db);
  offerCalibrationRecord.clear(db);
  // The scale applies to the defaults only (`router fit` calibrates its own shares on real labels), so it is measured with them.
  const shareScale = await measureShareScale(db, encoder, DEFAULT_PARAMS, (done, total) => onProgress?.("shares", done, total));
  const storeShareScale = () => (shareScale ? shareScaleRecord.write(db, { ...shareScale, indexVersion }) : shareScaleRecord.clear(db));
  const embedder = readMeta(db).embedder ?? null;
  let scope: IndexScope | undefined;
  // The in-scope model is fitted with what the index serves once its floor and scale are stored.
  const storeScope = async () => {
    scope = await fitIndexScope(db, encoder, paramsFor(db, embedder), indexVersion, (done, total) => onProgress?.("scope", done, total));
    if (scope) indexScopeRecord.write(db, scope);
    return paramsFor(db, embedder);
  };
  const evidence = await calibrateEvidence(
    db,
    encoder,
    paramsFor(db, embedder),
    (floor) => {
      evidenceFloorRecord.write(db, floor);
      storeShareScale();
      return storeScope();
    },
    (done, total) => onProgress?.("calibrate", done, total),
  );
  if (!evidence) {
    evidenceFloorRecord.clear(db);
    storeShareScale();
    await storeScope();
  }
  // Offers are measured on what the index now serves: its floor, scale and in-scope model.
  const offer = await calibrateOffer(db, encoder, paramsFor(db, embedder), indexVersion, (done, total) => onProgress?.("offer", done, total));
  if (offer) offerCalibrationRecord.write(db, offer);
  return { evidence, shareScale, scope, offer };
}

/** An index too small to measure routes without a floor or scale (stale ones would describe other skills). */
export function clearCalibration(db: IndexDatabase): void {
  evidenceFloorRecord.clear(db);
  shareScaleRecord.clear(db);
  indexScopeRecord.clear(db);
  offerCalibrationRecord.clear(db);
}
