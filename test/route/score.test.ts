import { describe, expect, it } from "vitest";
import { DEFAULT_PARAMS } from "../../src/route/index-params.js";
import { FEATURES, featureRows, rankingLogit, SCOPE_FEATURES, type RoutingParams } from "../../src/route/routing-params.js";
import { scoreCandidates } from "../../src/route/score.js";
import type { Evidence } from "../../src/route/signals.js";

const zeros = <T extends string>(names: readonly T[]) => Object.fromEntries(names.map((name) => [name, 0])) as Record<T, number>;
// Ranking by q2q_max alone; the in-scope model reads only the logit gap to the runner-up.
const params: RoutingParams = {
  ...DEFAULT_PARAMS,
  ranking: { ...zeros(FEATURES), q2q_max: 10 },
  scope: { weights: { ...zeros(SCOPE_FEATURES), logit_gap: 1 }, bias: 0 },
};

function candidate(skill: number, q2qMax: number): Evidence {
  const signals = { q2q_max: q2qMax, q2q_topk: q2qMax, q2d: 0, q2c: 0, bm25: 0, keyword_hits: 0, phrase_hits: 0, negative: 0 };
  return {
    skill,
    signals,
    bm25Raw: 0,
    topQuerySims: [q2qMax],
    heuristicManifest: false,
    matched: { keywords: [], phrases: [] },
    nearestQuery: null,
    nearestFromUse: false,
    negative: null,
    fromUse: { close: 0, same: 0 },
  };
}

describe("scoreCandidates with an allow-list", () => {
  const evidence = [candidate(0, 0.3), candidate(1, 0.8), candidate(2, 0.5)];
  const rows = featureRows(evidence);

  it("chooses only among the eligible, their shares summing to 1, and keeps the rest as context, best first", () => {
    const scoring = scoreCandidates(params, evidence, rows, 0, (skill) => skill === 0 || skill === 2);
    expect(scoring.ranked.map((item) => item.evidence.skill)).toEqual([2, 0]);
    expect(scoring.ranked.reduce((sum, item) => sum + item.share, 0)).toBeCloseTo(1, 12);
    expect(scoring.context.map((item) => item.evidence.skill)).toEqual([1]);
    expect(scoring.context[0]!.features).toBe(rows[1]);
  });

  it("reads the gap from the best eligible to the best other candidate, eligible or not", () => {
    const alone = scoreCandidates(params, evidence, rows, 0, (skill) => skill === 2);
    const gap = alone.scopeFeatures[SCOPE_FEATURES.indexOf("logit_gap")]!;
    expect(gap).toBeCloseTo(rankingLogit(params, rows[2]!) - rankingLogit(params, rows[1]!), 12);
    expect(gap).toBeLessThan(0);
    expect(alone.ranked).toHaveLength(1);
    expect(alone.ranked[0]!.share).toBe(1);
    expect(alone.ranked[0]!.confidence).toBe(alone.inScope);
    // Scored alone, the same skill had no runner-up and the capped gap of a runaway winner.
    const scoredAlone = scoreCandidates(params, [evidence[2]!], featureRows([evidence[2]!]), 0);
    expect(scoredAlone.scopeFeatures[SCOPE_FEATURES.indexOf("logit_gap")]).toBe(10);
    expect(scoredAlone.inScope).toBeGreaterThan(alone.inScope);
  });

  it("scores nothing when no candidate is eligible", () => {
    const none = scoreCandidates(params, evidence, rows, 0, () => false);
    expect(none).toMatchObject({ ranked: [], inScope: 0, scopeFeatures: [] });
    expect(none.context).toHaveLength(3);
  });
});

describe("the nearest-neighbour vote", () => {
  const withSims = (skill: number, sims: number[]): Evidence => ({ ...candidate(skill, sims[0] ?? 0), topQuerySims: sims });
  const votesOf = (evidence: Evidence[]) => featureRows(evidence).map((row) => row[FEATURES.indexOf("knn_vote")]!);

  it("shares the ten nearest synthetic queries over all candidates among their owners, weighted by similarity", () => {
    // The ten nearest: skill 0's 0.9 and 0.5, skill 1's eight from 0.8 down to 0.45; skill 2's 0.4 and 0.3 fall outside.
    const evidence = [withSims(0, [0.9, 0.5, 0.1]), withSims(1, [0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.2]), withSims(2, [0.4, 0.3])];
    const total = 0.9 + 0.5 + (0.8 + 0.75 + 0.7 + 0.65 + 0.6 + 0.55 + 0.5 + 0.45);
    const votes = votesOf(evidence);
    expect(votes[0]).toBeCloseTo((0.9 + 0.5) / total, 12);
    expect(votes[1]).toBeCloseTo((0.8 + 0.75 + 0.7 + 0.65 + 0.6 + 0.55 + 0.5 + 0.45) / total, 12);
    expect(votes[2]).toBe(0);
  });

  it("gives a tie at the tenth place to the earlier candidate, and counts no negative similarity", () => {
    const tied = votesOf([withSims(0, Array(9).fill(0.5)), withSims(1, [0.5]), withSims(2, [0.5])]);
    expect(tied).toEqual([0.9, 0.1, 0].map((share) => expect.closeTo(share, 12)));
    expect(votesOf([withSims(0, [-0.2]), withSims(1, [-0.3])])).toEqual([0, 0]);
  });
});
