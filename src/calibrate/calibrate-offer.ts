import { routableQuery } from "../contract/limits.js";
import { fitLogistic } from "../fit/logistic-regression.js";
import type { QueryEncoder } from "../models/query-encoder.js";
import { MAX_OFFERED } from "../route/answer.js";
import { prepareQuery } from "../route/query.js";
import { decideRoute, DEFAULT_CANDIDATES, scoreRoute } from "../route/router.js";
import { SCOPE_FEATURES, scopeModelProbability, type RoutingParams } from "../route/routing-params.js";
import type { Snapshot } from "../route/snapshot.js";
import type { IndexDatabase } from "../store/database.js";
import type { OfferCalibration } from "../store/offer-calibration.js";
import type { ScopeModel } from "../store/routing-params.js";
import { evenSample } from "./even-sample.js";
import EVERYDAY_BANK from "./everyday-bank.json" with { type: "json" };
import { withHeldOut } from "./held-out-index.js";
import { probeRequests } from "./probe-requests.js";
import { quantile } from "./quantile.js";

// Held-out requests: enough for stable quantiles, few enough to cost seconds at index time.
const MAX_REQUESTS = 400;
// Fewer, and the quantiles say more about the sample than about the index.
const MIN_REQUESTS = 20;
// A skill lends a request only when two stay: its own evidence must not vanish with the one held out.
const MIN_QUERIES = 3;
/** Share of everyday requests (the shipped bank, cross-validated) the gate lets through to an offer. */
export const EVERYDAY_ANSWERED = 0.1;
/** Share of held-out requests, among those whose skill ranked in the first MAX_OFFERED, whose offer holds their skill. */
export const OFFER_COVERAGE = 0.95;
/** Share of direct injections that must be right, on the held-out requests, before the router injects without the agent. */
export const INJECT_PRECISION = 0.95;
// Right injections the precision is measured on, at least: fewer say too little to skip the agent.
const MIN_INJECTED = 10;
const FOLDS = 5;
// An everyday request this near a skill's requests (the median of held-out requests' nearness to their own skill's) is the skill's.
const CLAIM_QUANTILE = 0.5;

/** One routed request as the calibration reads it. */
interface RoutedSample {
  /** The best candidate's scope features: what the gate reads. */
  row: number[];
  /** The inject-or-none rule injects the best candidate, and its share. */
  injects: boolean;
  bestShare: number;
  /** The best candidate is the right one (only a held-out request has a right one). */
  right: boolean;
  /** Shares of the first MAX_OFFERED candidates, best first, and where the right one ranks among them (-1: not there). */
  shares: number[];
  rightRank: number;
  /** The best candidate's similarity to its nearest request (0 when the embedder cannot read the text). */
  nearest: number;
  readable: boolean;
}

/**
 * Measures how this index's offers should be built, with no labels (store/offer-calibration.ts): one request of each of
 * an even spread of skills is held out of the index and routed, with its skill and with its skill left out, and so is
 * the bank of everyday requests. From them: the gate (P(a skill is wanted), requests against everyday chat) and its
 * threshold, how near the best skill's share an offered one's must be, and the share above which the rule's injections were right 95% of the
 * time. Undefined when too few skills can lend a request.
 */
export async function calibrateOffer(
  db: IndexDatabase,
  encoder: QueryEncoder,
  params: RoutingParams,
  indexVersion: number,
  onProgress?: (done: number, total: number) => void,
): Promise<OfferCalibration | undefined> {
  const lenders = evenSample(
    probeRequests(db).filter((request) => request.queries >= MIN_QUERIES),
    MAX_REQUESTS,
  );
  if (lenders.length < MIN_REQUESTS) return undefined;
  const nearMisses = lenders.flatMap((lender) => (lender.negative ? [{ skill: lender.skill, text: lender.negative }] : []));
  const texts = [...lenders.map((lender) => lender.query), ...nearMisses.map((nearMiss) => nearMiss.text), ...EVERYDAY_BANK].map(routableQuery);
  let done = 0;
  // Embedded together (the encoder keeps them): one at a time, the model would cost more than the routes.
  await encoder.embedMany(texts);
  const { requests, wrongNearMisses, everyday } = await withHeldOut(
    db,
    lenders.map((lender) => ({ skillId: lender.skillId, queries: [lender.query], negatives: lender.negative ? [lender.negative] : [] })),
    params,
    async (snapshot) => {
      const routed = async (text: string, skill: string | undefined) => {
        const sample = routeSample(snapshot, await prepareQuery(encoder, routableQuery(text), undefined), skill);
        onProgress?.(++done, texts.length);
        return sample;
      };
      const found = { requests: [] as RoutedSample[], wrongNearMisses: [] as RoutedSample[], everyday: [] as RoutedSample[] };
      for (const lender of lenders) found.requests.push(await routed(lender.query, lender.skill));
      // A near miss that reaches another skill may well be that skill's: only one that reaches its own is wrong for sure.
      for (const nearMiss of nearMisses) {
        const sample = await routed(nearMiss.text, nearMiss.skill);
        if (sample.right) found.wrongNearMisses.push({ ...sample, right: false });
      }
      for (const text of EVERYDAY_BANK) found.everyday.push(await routed(text, undefined));
      return found;
    },
  );
  const chat = unclaimed(requests, everyday);
  const gate = fitGate(requests, chat);
  const ratio = coveringRatio(requests);
  // The rule injects only what the gate lets through: the others are none whatever their share.
  const routed = [...requests, ...wrongNearMisses, ...everyday];
  const gated = gate.model ? routed.filter((sample) => gate.passes(sample)) : routed;
  return {
    ...(gate.model ? { gate: { ...gate.model, threshold: gate.threshold } } : {}),
    ratio,
    injectShare: injectingShare(gated),
    holdsRight: requests.filter((sample) => holds(sample, ratio)).length / requests.length,
    requests: requests.length,
    everyday: chat.length,
    everydayAnswered: gate.everydayAnswered,
    requestsOffered: gate.requestsOffered,
    indexVersion,
  };
}

/** A request routed on the held-out index; `skill` is its own skill, if it has one. */
function routeSample(snapshot: Snapshot, query: Awaited<ReturnType<typeof prepareQuery>>, skill: string | undefined): RoutedSample {
  const scored = scoreRoute(snapshot, query, DEFAULT_CANDIDATES, {});
  const decided = decideRoute(snapshot, query, scored, {});
  const first = scored.scoring.ranked.slice(0, MAX_OFFERED);
  const names = first.map((item) => snapshot.model.skills[item.evidence.skill]!.name);
  const rightRank = skill === undefined ? -1 : names.indexOf(skill);
  return {
    row: scored.scoring.scopeFeatures,
    injects: decided.decision === "inject",
    bestShare: first[0]?.share ?? 0,
    right: rightRank === 0,
    shares: first.map((item) => item.share),
    rightRank,
    nearest: first[0]?.evidence.signals.q2q_max ?? 0,
    readable: query.readable,
  };
}

/**
 * The everyday requests no installed skill claims: one that comes as near a skill's requests as half the held-out
 * requests come to their own skill's is that skill's request on this index (a translator skill's "how do you say thank
 * you in Japanese"), not chat.
 */
function unclaimed(requests: RoutedSample[], everyday: RoutedSample[]): RoutedSample[] {
  const own = requests.filter((sample) => sample.readable && sample.rightRank === 0).map((sample) => sample.nearest);
  if (own.length === 0) return everyday;
  const claims = quantile(own, CLAIM_QUANTILE);
  return everyday.filter((sample) => !sample.readable || sample.nearest < claims);
}

/**
 * The gate: a logistic model of P(a skill is wanted) on the best candidate's scope features, held-out requests against
 * everyday ones, and its threshold, with each sample scored by a model fitted without its fold. No model when either
 * side has no routed request.
 */
function fitGate(
  requests: RoutedSample[],
  everyday: RoutedSample[],
): { model?: ScopeModel; threshold: number; everydayAnswered: number; requestsOffered: number; passes: (sample: RoutedSample) => boolean } {
  const samples = [...requests.map((sample) => ({ sample, row: sample.row, wanted: 1 })), ...everyday.map((sample) => ({ sample, row: sample.row, wanted: 0 }))].filter(
    (sample) => sample.row.length > 0,
  );
  if (!samples.some((sample) => sample.wanted === 1) || !samples.some((sample) => sample.wanted === 0)) return { threshold: 0, everydayAnswered: 1, requestsOffered: 1, passes: () => true };
  const scored = samples.map(() => 0);
  for (let fold = 0; fold < FOLDS; fold++) {
    const model = fitModel(samples.filter((_, at) => at % FOLDS !== fold));
    samples.forEach((sample, at) => {
      if (at % FOLDS === fold) scored[at] = scopeModelProbability(model, sample.row);
    });
  }
  const scoresOf = (wanted: number) => scored.filter((_, at) => samples[at]!.wanted === wanted);
  // The threshold that lets EVERYDAY_ANSWERED of the everyday requests through.
  const threshold = quantile(scoresOf(0), 1 - EVERYDAY_ANSWERED);
  const share = (wanted: number) => {
    const side = scoresOf(wanted);
    return side.filter((score) => score >= threshold).length / side.length;
  };
  const model = fitModel(samples);
  // A sample the gate was fitted on is judged by the model fitted without its fold, as a new request would be.
  const heldOutScore = new Map(samples.map((sample, at) => [sample.sample, scored[at]!]));
  const passes = (sample: RoutedSample) => sample.row.length > 0 && (heldOutScore.get(sample) ?? scopeModelProbability(model, sample.row)) >= threshold;
  return { model, threshold, everydayAnswered: share(0), requestsOffered: share(1), passes };
}

function fitModel(samples: { row: number[]; wanted: number }[]): ScopeModel {
  const fitted = fitLogistic(
    samples.map((sample) => sample.row),
    samples.map((sample) => sample.wanted),
  );
  return { weights: Object.fromEntries(SCOPE_FEATURES.map((feature, at) => [feature, fitted.coefficients[at]!])) as ScopeModel["weights"], bias: fitted.intercept };
}

/**
 * How near the best skill's share an offered skill's must be: split-conformal over the held-out requests whose skill
 * ranked in the first MAX_OFFERED, each scored by its own skill's share over the best one's; the quantile (with the
 * finite-sample correction) that keeps OFFER_COVERAGE of them. A list of every skill at or above that ratio then holds
 * the right one for that share of such requests. 0 (every skill up to MAX_OFFERED) when none ranked there.
 */
function coveringRatio(requests: RoutedSample[]): number {
  const ratios = requests
    .filter((sample) => sample.rightRank >= 0)
    .map((sample) => sample.shares[sample.rightRank]! / sample.shares[0]!)
    .sort((a, b) => b - a);
  if (ratios.length === 0) return 0;
  return ratios[Math.min(ratios.length - 1, Math.ceil((ratios.length + 1) * OFFER_COVERAGE) - 1)]!;
}

/** An offer of the skills within `ratio` of the best (answer.ts's offerList, without the token budget) holds the request's own skill. */
function holds(sample: RoutedSample, ratio: number): boolean {
  return sample.rightRank >= 0 && sample.shares[sample.rightRank]! >= ratio * sample.shares[0]!;
}

/**
 * The least best-candidate share at which the rule's injections (held-out requests, the same with their skill left
 * out, everyday requests) were right INJECT_PRECISION of the time, with at least MIN_INJECTED right; null when none is.
 */
function injectingShare(samples: RoutedSample[]): number | null {
  const injected = samples.filter((sample) => sample.injects).sort((a, b) => b.bestShare - a.bestShare);
  let right = 0;
  let found: number | null = null;
  injected.forEach((sample, at) => {
    if (sample.right) right++;
    const next = injected[at + 1];
    // Only between distinct shares: a threshold takes every sample at its share or above.
    if (next && next.bestShare === sample.bestShare) return;
    if (right >= MIN_INJECTED && right / (at + 1) >= INJECT_PRECISION) found = sample.bestShare;
  });
  return found;
}
