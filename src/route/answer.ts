import type { OfferParams } from "../store/routing-params.js";
import type { DecisionOutcome, RankedCandidate } from "./decide.js";
import type { NoneReason, OfferReason } from "../contract/route.js";
import type { UseEvidence } from "./signals.js";

/** Most skills an offer lists: a strong agent reads a few descriptions well, many poorly (bench/RESULTS.md, "What reaches the agent"). */
export const MAX_OFFERED = 4;
/** Most tokens an offer's lines may add to the agent's context (the first skill is always listed): four long descriptions. */
export const OFFER_TOKEN_BUDGET = 800;
/** Confirmed requests that say the same as a new one and inject their skill directly: several agreeing are as sure as the agent. */
export const USE_INJECTS = 3;

/**
 * The offer rule where `router index` could not measure the index (too few skills): the inject-or-none rule injects
 * when the best skill is likelier than all the others together (a share of half), and offers below that, and where
 * only the margin stopped it, the skills within a tenth of the best one's share.
 */
export const DEFAULT_OFFER: OfferParams = { ratio: 0.1, injectShare: 0.5, holdsRight: null };

/** A ranked candidate as the answer reads it. */
export interface AnswerCandidate extends RankedCandidate {
  /** P(this skill | some skill applies). */
  share: number;
  /** Requests confirmed for it by use close to this one, and those that say the same (signals.ts). */
  fromUse: UseEvidence;
  /** The risky-skill rules flagged it: never injected unless the message calls it by name. */
  risky: boolean;
  /** Tokens its line adds to an offer (counted when first asked for). */
  offerTokens: () => number;
}

export interface AnswerRule {
  /** Answer only inject or none (the `offer: false` option, and multi mode). */
  injectOrNone: boolean;
  invoked: boolean;
}

export interface AnswerOutcome extends Omit<DecisionOutcome, "decision" | "reason"> {
  decision: "inject" | "offer" | "none";
  reason: NoneReason | OfferReason | null;
  /** The skills to offer, best first (empty unless the decision is offer). */
  offered: string[];
}

/**
 * The router's answer from the inject-or-none rule's verdict (`decided`, see decide.ts) and what the index measured of
 * its offers. Inject when the agent could not do better: the message calls the skill, several requests confirmed by
 * use are close to it, or the rule injects with a share that was right at least 95% of the time on this index's
 * held-out requests. Offer a short list when some skill plausibly serves (the gate, else the rule's own evidence, or
 * a close request from use); none otherwise. A flagged skill is offered with its warning, never injected unasked.
 */
export function answer(ranked: AnswerCandidate[], decided: DecisionOutcome, wanted: number | undefined, offer: OfferParams, rule: AnswerRule): AnswerOutcome {
  const [best] = ranked;
  const chosen = (decision: AnswerOutcome["decision"], reason: AnswerOutcome["reason"], selected: string[], offered: string[]): AnswerOutcome => ({
    ...decided,
    decision,
    reason,
    selected,
    offered,
  });
  if (!best || rule.invoked) return chosen(decided.decision, decided.reason, decided.selected, []);
  const riskyInjected = decided.selected.some((name) => ranked.find((candidate) => candidate.name === name)?.risky);
  if (rule.injectOrNone) return riskyInjected ? chosen("none", "risky", [], []) : chosen(decided.decision, decided.reason, decided.selected, []);

  const byUse = best.fromUse.same >= USE_INJECTS && !best.nearMiss;
  const byEvidence = decided.decision === "inject" && offer.injectShare !== null && best.share >= offer.injectShare;
  if ((byUse || byEvidence) && !best.risky) return chosen("inject", null, [best.name], []);
  const plausible = byUse || byEvidence || ranked.some((candidate) => candidate.fromUse.close > 0) || passesGate(decided, wanted, offer);
  if (!plausible) return chosen("none", decided.reason ?? "below_threshold", [], []);
  // A near miss its manifest names is no choice for this request; the others still are.
  const offered = offerList(best.nearMiss ? ranked.slice(1) : ranked, offer.ratio);
  if (offered.length === 0) return chosen("none", "near_miss", [], []);
  return chosen("offer", (byUse || byEvidence) && best.risky ? "risky" : "unsure", [], offered);
}

/** Some skill plausibly serves: the index's gate says a skill is wanted, or without one, the rule found evidence (it injects, or only the margin stopped it). */
function passesGate(decided: DecisionOutcome, wanted: number | undefined, offer: OfferParams): boolean {
  if (offer.gate && wanted !== undefined) return wanted >= offer.gate.threshold;
  return decided.decision === "inject" || decided.reason === "small_margin";
}

/**
 * The skills whose share is at least `ratio` times the best one's (what kept the right skill listed on this index's
 * held-out requests), best first, at most MAX_OFFERED and within the token budget; a skill close to a request confirmed
 * by use is always listed.
 */
export function offerList(ranked: AnswerCandidate[], ratio: number): string[] {
  const listed: AnswerCandidate[] = [];
  const least = ratio * (ranked[0]?.share ?? 0);
  let tokens = 0;
  for (const candidate of ranked) {
    if (listed.length >= MAX_OFFERED) break;
    if (candidate.share < least && candidate.fromUse.close === 0) continue;
    const cost = candidate.offerTokens();
    if (listed.length > 0 && tokens + cost > OFFER_TOKEN_BUDGET) break;
    listed.push(candidate);
    tokens += cost;
  }
  return listed.map((candidate) => candidate.name);
}
