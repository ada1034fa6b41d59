import type { QueryEncoder } from "../models/query-encoder.js";
import type { IndexDatabase } from "../store/database.js";
import { readMeta } from "../store/index-meta.js";
import { readManifests } from "../store/manifest-rows.js";
import type { StoredManifest } from "../store/records.js";
import { routableQuery } from "../contract/limits.js";
import { embedderReads } from "../route/embedder-coverage.js";
import { rankingLogit, shares, type RoutingParams } from "../route/routing-params.js";
import { prepareQuery } from "../route/query.js";
import { DEFAULT_CANDIDATES, scoredCandidates } from "../route/router.js";
import type { ShareScale } from "../store/share-scale.js";
import { evenSample } from "./even-sample.js";
import { withHeldOut } from "./held-out-index.js";
import { probeRequests, type ProbeRequest } from "./probe-requests.js";

// Held-out requests: enough for a stable scale, few enough to cost seconds at index time.
const MAX_PROBES = 300;
// Fewer than this and the scale says more about the sample than about the index.
const MIN_PROBES = 20;
// A skill lends one of its requests only when two stay: its own evidence must not vanish with the one held out.
const MIN_QUERIES = 3;
// Scales tried, 0.3 to 1: above 1 would make shares sharper than the defaults were fitted to be.
const SCALES = Array.from({ length: 15 }, (_, index) => 0.3 + index * 0.05);

/** What one measurement finds (the index stores it with the version it was measured on). */
export type ShareScaleMeasure = Omit<ShareScale, "indexVersion">;

/**
 * How sharp the ranking's shares should be on this index under `params`, with no labels: one request of each of an
 * even spread of skills is held out (its text, vector and manifest entry removed and the routing data built again,
 * inside a savepoint) and routed, and the scale whose shares give their own skills the highest likelihood is the
 * answer. The savepoint is rolled back, so the index is left as it was. Undefined when too few skills can lend one.
 */
export async function measureShareScale(db: IndexDatabase, encoder: QueryEncoder, params: RoutingParams, onProgress?: (done: number, total: number) => void): Promise<ShareScaleMeasure | undefined> {
  const manifests = readManifests(db);
  const probes = heldOutProbes(db, manifests);
  if (probes.length < MIN_PROBES) return undefined;
  const heldOut = probes.map((probe) => ({ skillId: probe.skillId, queries: [probe.query] }));
  return withHeldOut(db, heldOut, params, async (snapshot) => {
    const groups: RankedProbe[] = [];
    for (const [done, probe] of probes.entries()) {
      const scored = scoredCandidates(snapshot, await prepareQuery(encoder, routableQuery(probe.query), undefined), DEFAULT_CANDIDATES, {});
      const logits = scored.features.slice(0, scored.choices).map((row) => rankingLogit(params, row));
      groups.push({ logits, right: scored.names.slice(0, scored.choices).indexOf(probe.skill) });
      onProgress?.(done + 1, probes.length);
    }
    return { scale: likeliestScale(groups), samples: groups.length, rankedFirst: groups.filter((group) => group.right === 0).length / groups.length };
  });
}

/** The middle request of each of an even spread of skills with enough of them, in scripts the embedder reads (dense signals decide shares there). */
function heldOutProbes(db: IndexDatabase, manifests: Map<string, StoredManifest>): ProbeRequest[] {
  const embedder = readMeta(db).embedder;
  return evenSample(
    probeRequests(db, manifests).filter((request) => request.queries >= MIN_QUERIES && embedderReads(request.query, embedder)),
    MAX_PROBES,
  );
}

interface RankedProbe {
  logits: number[];
  /** Where the held-out request's own skill ranked (-1: not among the candidates, whatever the scale). */
  right: number;
}

/** The scale with the highest mean log-share of each probe's own skill (ties go to the larger, nearer the defaults). */
function likeliestScale(groups: RankedProbe[]): number {
  const ranked = groups.filter((group) => group.right >= 0);
  let best = { scale: 1, likelihood: -Infinity };
  for (const scale of SCALES) {
    const likelihood = ranked.reduce((sum, group) => sum + Math.log(shares(group.logits.map((logit) => logit * scale))[group.right]!), 0);
    if (likelihood >= best.likelihood) best = { scale: Math.round(scale * 100) / 100, likelihood };
  }
  return best.scale;
}
