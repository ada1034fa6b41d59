import type { QueryEncoder } from "../models/query-encoder.js";
import type { IndexDatabase } from "../store/database.js";
import { readMeta } from "../store/index-meta.js";
import { countSkills } from "../store/skill-rows.js";
import { mostlyLatin, readsEveryScript } from "../route/embedder-coverage.js";
import type { EvidenceFloor } from "../store/evidence-floor.js";
import { routableQuery } from "../contract/limits.js";
import type { RoutingParams } from "../route/routing-params.js";
import { prepareQuery } from "../route/query.js";
import { decideRoute, DEFAULT_CANDIDATES, DEFAULT_RETRIEVERS, scoreRoute, scoredCandidates } from "../route/router.js";
import { snapshotOf, type Snapshot } from "../route/snapshot.js";
import { VERSION } from "../version.js";
import { evenSample } from "./even-sample.js";
import { probeRequests } from "./probe-requests.js";
import { quantile } from "./quantile.js";
import { EVERYDAY_REQUESTS } from "./everyday-requests.js";

// Skills sampled: enough for stable quantiles (300 put trigger-dev's whole-corpus floor 0.016 below what 1,000 measure,
// routing 4 points more of its near misses), few enough to cost seconds at index time.
const MAX_SAMPLES = 1000;
// The lexical floor rejects this share of best-wrong BM25 scores; chosen on the training and dev sets (bench/RESULTS.md).
const BM25_QUANTILE = 0.6;
const Q2Q_QUANTILE = 0.5;
// Fewer other-script probes than this, and those queries share the one floor.
const MIN_SCRIPT_SAMPLES = 20;
/** Below this many skills, leaving one out says little about the rest. */
export const MIN_CALIBRATION_SKILLS = 10;

export interface EvidenceCalibration {
  floor: EvidenceFloor;
  /** Share of the "right skill absent" requests the calibrated index still routes to some skill. */
  absentRouted: number;
  /** Share of shipped everyday requests (chat, trivia) it routes to some skill. */
  everydayRouted: number;
}

/**
 * Measures the evidence floor of an index with no labels: a sample of skills, each one's own synthetic query
 * routed with that skill left out, so whatever comes first is wrong by construction. Runs on the index as `db` reads
 * it now (inside `router index`'s transaction, so the floor commits with the skills it was measured on): `params` are
 * the parameters that index's routes use before the floor, `calibrated` stores the floor (and whatever else the index
 * measures with it) and gives the parameters its routes use after; what the index now routes is measured with those.
 * Undefined for an index too small to measure.
 */
export async function calibrateEvidence(
  db: IndexDatabase,
  encoder: QueryEncoder,
  params: RoutingParams,
  calibrated: (floor: EvidenceFloor) => Promise<RoutingParams>,
  onProgress?: (done: number, total: number) => void,
): Promise<EvidenceCalibration | undefined> {
  const probes = absentSkillProbes(db);
  if (probes.length === 0) return undefined;
  const total = 2 * probes.length + EVERYDAY_REQUESTS.length;
  let done = 0;
  const step = () => onProgress?.(++done, total);
  const snapshot = await snapshotOf(db, { retrievers: DEFAULT_RETRIEVERS, params });
  // BM25 by script (CJK text shares far more terms); dense similarity where the embedder reads the text.
  const latinBm25: number[] = [];
  const otherScripts: number[] = [];
  const readQ2q: number[] = [];
  const readsAll = readsEveryScript(encoder.id);
  for (const probe of probes) {
    const query = await prepareQuery(encoder, probe.query, undefined);
    const best = scoredCandidates(snapshot, query, DEFAULT_CANDIDATES, { exclude: [probe.skill] }).evidence[0];
    const latin = mostlyLatin(probe.query);
    (latin ? latinBm25 : otherScripts).push(best?.signals.bm25 ?? 0);
    if (latin || readsAll) readQ2q.push(best?.signals.q2q_max ?? 0);
    step();
  }
  const floor: EvidenceFloor = {
    bm25: quantile(latinBm25, BM25_QUANTILE),
    ...(otherScripts.length >= MIN_SCRIPT_SAMPLES ? { bm25OtherScripts: quantile(otherScripts, BM25_QUANTILE) } : {}),
    q2qMax: quantile(readQ2q, Q2Q_QUANTILE),
    samples: probes.length,
    indexVersion: readMeta(db).indexVersion,
    routerVersion: VERSION,
  };
  const after: Snapshot = { ...snapshot, params: await calibrated(floor) };
  const absentRouted = await routedShare(after, encoder, probes, step);
  const everydayRouted = await routedShare(
    after,
    encoder,
    EVERYDAY_REQUESTS.map((query) => ({ query })),
    step,
  );
  return { floor, absentRouted, everydayRouted };
}

interface Probe {
  query: string;
  /** The skill the query was written for, left out when it is routed. */
  skill: string;
}

/**
 * Each skill's middle request from an even spread of skills, separately for Latin text and other scripts: CJK text shares far more BM25 terms.
 */
function absentSkillProbes(db: IndexDatabase): Probe[] {
  if (countSkills(db) < MIN_CALIBRATION_SKILLS) return [];
  const all = probeRequests(db).map((request) => ({ query: routableQuery(request.query), skill: request.skill }));
  const latin = all.filter((probe) => mostlyLatin(probe.query));
  const otherScripts = all.filter((probe) => !mostlyLatin(probe.query));
  return [...evenSample(latin, MAX_SAMPLES), ...evenSample(otherScripts, MAX_SAMPLES)];
}

/** The share of the probes (each with its skill left out, if it names one) that the snapshot's parameters inject a skill for. */
async function routedShare(snapshot: Snapshot, encoder: QueryEncoder, probes: { query: string; skill?: string }[], step: () => void): Promise<number> {
  let routed = 0;
  for (const probe of probes) {
    const options = probe.skill !== undefined ? { exclude: [probe.skill] } : {};
    const query = await prepareQuery(encoder, probe.query, undefined);
    if (decideRoute(snapshot, query, scoreRoute(snapshot, query, DEFAULT_CANDIDATES, options), options).decision === "inject") routed++;
    step();
  }
  return probes.length > 0 ? routed / probes.length : 0;
}
