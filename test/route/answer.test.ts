import { describe, expect, it } from "vitest";
import { answer, MAX_OFFERED, OFFER_TOKEN_BUDGET, USE_INJECTS, type AnswerCandidate } from "../../src/route/answer.js";
import type { DecisionOutcome } from "../../src/route/decide.js";
import type { OfferParams } from "../../src/store/routing-params.js";

const gate = { weights: { top_logit: 0, logit_gap: 0, q2q_max: 0, q2q_topk: 0, q2c: 0, bm25: 0, keywords: 0, abstain_sim: 0, heuristic: 0, heuristic_q2q: 0 }, bias: 0, threshold: 0.5 };
const offer: OfferParams = { gate, ratio: 0.2, injectShare: 0.9, holdsRight: 0.9 };

/** Candidates with these shares, best first; each line of an offer costs 50 tokens. */
function candidates(...shares: number[]): AnswerCandidate[] {
  return shares.map((share, at) => ({
    name: `s${at + 1}`,
    confidence: share,
    heuristicManifest: false,
    bm25: 0.5,
    lexicalHit: true,
    q2qMax: 0.8,
    retrieved: true,
    nearMiss: false,
    share,
    fromUse: { close: 0, same: 0 },
    risky: false,
    offerTokens: () => 50,
  }));
}

const injects: DecisionOutcome = { decision: "inject", selected: ["s1"], reason: null, threshold: 0.5, evidenceFloor: null };
const abstains: DecisionOutcome = { decision: "none", selected: [], reason: "below_threshold", threshold: 0.5, evidenceFloor: null };
const rule = { injectOrNone: false, invoked: false };

describe("answer", () => {
  it("injects what the rule injects at a share its injections were right at, and offers the near ones below it", () => {
    expect(answer(candidates(0.95, 0.03, 0.02), injects, 0.9, offer, rule)).toMatchObject({ decision: "inject", selected: ["s1"], offered: [] });
    expect(answer(candidates(0.6, 0.3, 0.1), injects, 0.9, offer, rule)).toMatchObject({ decision: "offer", selected: [], offered: ["s1", "s2"], reason: "unsure" });
  });

  it("never injects on the rule's word where the index measured no share right often enough", () => {
    expect(answer(candidates(0.99, 0.01), injects, 0.9, { ...offer, injectShare: null }, rule)).toMatchObject({ decision: "offer", offered: ["s1"] });
  });

  it("answers none when the gate says no skill is wanted, whatever the ranking", () => {
    expect(answer(candidates(0.6, 0.3), abstains, 0.2, offer, rule)).toMatchObject({ decision: "none", reason: "below_threshold", offered: [] });
    expect(answer(candidates(0.6, 0.3), abstains, 0.7, offer, rule)).toMatchObject({ decision: "offer", offered: ["s1", "s2"] });
  });

  it("without a gate, offers where the rule found evidence: it injects or only the margin stopped it", () => {
    const { gate: _gate, ...ungated } = offer;
    const closeCall: DecisionOutcome = { ...abstains, reason: "small_margin" };
    expect(answer(candidates(0.5, 0.45), closeCall, undefined, ungated, rule)).toMatchObject({ decision: "offer", offered: ["s1", "s2"] });
    expect(answer(candidates(0.5, 0.45), abstains, undefined, ungated, rule)).toMatchObject({ decision: "none", reason: "below_threshold" });
  });

  it("lists at most MAX_OFFERED skills, within the token budget", () => {
    const flat = candidates(...Array.from({ length: MAX_OFFERED + 3 }, () => 0.1));
    expect(answer(flat, abstains, 0.9, offer, rule).offered).toHaveLength(MAX_OFFERED);
    const costly = flat.map((candidate) => ({ ...candidate, offerTokens: () => OFFER_TOKEN_BUDGET / 2 }));
    expect(answer(costly, abstains, 0.9, offer, rule).offered).toEqual(["s1", "s2"]);
  });

  it("leaves out a best skill whose own near misses name the request, and offers the others", () => {
    const [best, ...rest] = candidates(0.7, 0.2, 0.1);
    expect(answer([{ ...best!, nearMiss: true }, ...rest], abstains, 0.9, offer, rule)).toMatchObject({ decision: "offer", offered: ["s2", "s3"] });
    expect(answer([{ ...best!, nearMiss: true }], abstains, 0.9, offer, rule)).toMatchObject({ decision: "none", reason: "near_miss" });
  });

  it("offers a flagged skill with the reason instead of injecting it, and answers none for it when offers are off", () => {
    const [best, ...rest] = candidates(0.95, 0.05);
    const flagged = [{ ...best!, risky: true }, ...rest];
    expect(answer(flagged, injects, 0.9, offer, rule)).toMatchObject({ decision: "offer", reason: "risky", offered: ["s1"] });
    expect(answer(flagged, injects, 0.9, offer, { ...rule, injectOrNone: true })).toMatchObject({ decision: "none", reason: "risky", selected: [] });
  });

  it("injects a flagged skill the message calls by name: the user asked for it", () => {
    const [best] = candidates(0.2);
    expect(answer([{ ...best!, risky: true }], injects, 0.1, offer, { ...rule, invoked: true })).toMatchObject({ decision: "inject", selected: ["s1"] });
  });

  it("counts requests confirmed by use as evidence: one close request earns an offer past the gate, several that say the same an injection", () => {
    const [best, ...rest] = candidates(0.4, 0.35, 0.25);
    expect(answer([{ ...best!, fromUse: { close: 1, same: 0 } }, ...rest], abstains, 0.1, offer, rule)).toMatchObject({ decision: "offer", offered: ["s1", "s2", "s3"] });
    expect(answer([{ ...best!, fromUse: { close: USE_INJECTS, same: USE_INJECTS } }, ...rest], abstains, 0.1, offer, rule)).toMatchObject({ decision: "inject", selected: ["s1"] });
    // Close but not saying the same (a near miss resembles a skill's requests): offered, never injected.
    expect(answer([{ ...best!, fromUse: { close: USE_INJECTS, same: USE_INJECTS - 1 } }, ...rest], abstains, 0.1, offer, rule)).toMatchObject({ decision: "offer" });
    // A skill low in the ranking but close to a confirmed request is listed whatever its share.
    const low = candidates(0.9, 0.09, 0.01);
    expect(answer([...low.slice(0, 2), { ...low[2]!, fromUse: { close: 1, same: 0 } }], abstains, 0.9, offer, rule).offered).toEqual(["s1", "s3"]);
  });

  it("answers inject or none as the rule does when offers are off", () => {
    expect(answer(candidates(0.6, 0.3), injects, 0.9, offer, { ...rule, injectOrNone: true })).toMatchObject({ decision: "inject", selected: ["s1"] });
    expect(answer(candidates(0.6, 0.3), abstains, 0.9, offer, { ...rule, injectOrNone: true })).toMatchObject({ decision: "none", reason: "below_threshold" });
  });
});
