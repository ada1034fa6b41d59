import type { IndexDatabase } from "../store/database.js";
import { fittedParamsRecord, routingParamsSchema } from "../store/routing-params.js";
import defaults from "./default-params.json" with { type: "json" };
import { evidenceFloorRecord } from "../store/evidence-floor.js";
import { indexScopeRecord } from "../store/index-scope.js";
import { shareScaleRecord } from "../store/share-scale.js";
import { offerCalibrationRecord } from "../store/offer-calibration.js";
import type { RoutingParams } from "./routing-params.js";

/**
 * Used until `router fit` stores parameters learned from the index's own labelled cases: fitted by
 * bench/fit-defaults.ts on the training halves of the labelled sets, with the offline embedder.
 */
export const DEFAULT_PARAMS: RoutingParams = routingParamsSchema.parse(defaults);

/**
 * The parameters for an index: what `router fit` stored, when fitted for the same embedder, else the defaults.
 * The defaults get what `router index` measured on this index: its evidence floor and its share scale. Fitted
 * thresholds and shares, learned from real labels, keep only the floor's no-evidence rule (no lexical hit and a weak
 * dense match), not the lexical floor.
 */
export function paramsFor(db: IndexDatabase, embedder: string | null): RoutingParams {
  const stored = fittedParams(db, embedder);
  const floor = evidenceFloorRecord.read(db);
  const offer = offerParams(db);
  if (stored) return { ...stored, ...(floor ? { evidenceFloor: { ...floor, bm25: 0, bm25OtherScripts: 0 } } : {}), ...offer };
  const shareScale = shareScaleRecord.read(db);
  const scope = indexScopeRecord.read(db);
  return {
    ...DEFAULT_PARAMS,
    ...(floor ? { evidenceFloor: floor } : {}),
    ...(shareScale ? { shareScale: shareScale.scale } : {}),
    ...(scope?.model && scope.threshold !== undefined ? { requestScope: { ...scope.model, threshold: scope.threshold } } : {}),
    ...offer,
  };
}

/** What `router index` measured of this index's offers, as routing parameters (none: the offer rule's defaults apply). */
function offerParams(db: IndexDatabase): Pick<RoutingParams, "offer"> {
  const measured = offerCalibrationRecord.read(db);
  if (!measured) return {};
  const { gate, ratio, injectShare, holdsRight } = measured;
  return { offer: { ...(gate ? { gate } : {}), ratio, injectShare, holdsRight } };
}

/** What `router fit` stored for this embedder, if anything (parameters fitted for another one do not apply). */
export function fittedParams(db: IndexDatabase, embedder: string | null): RoutingParams | undefined {
  const stored = fittedParamsRecord.read(db);
  return stored?.embedder === embedder ? stored : undefined;
}
