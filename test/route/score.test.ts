import { describe, expect, it } from "vitest";
import { DEFAULT_FUSION } from "../../src/route/fusion-params.js";
import { FEATURES, featureRows, rankingLogit, SCOPE_FEATURES, type FusionParams } from "../../src/route/fusion.js";
import { scoreCandidates } from "../../src/route/score.js";
import type { Evidence } from "../../src/route/signals.js";

const zeros = <T extends string>(names: readonly T[]) => Object.fromEntries(names.map((name) => [name, 0])) as Record<T, number>;
// Ranking by q2q_max alone; the in-scope model reads only the logit gap to the runner-up.
const params: FusionParams = {
  ...DEFAULT_FUSION,
  ranking: { ...zeros(FEATURES), q2q_max: 10 },
  scope: { weights: { ...zeros(SCOPE_FEATURES), logit_gap: 1 }, bias: 0 },
};

function candidate(skill: number, q2qMax: number): Evidence {
  const signals = { q2q_max: q2qMax, q2q_topk: q2qMax, q2d: 0, q2c: 0, bm25: 0, keyword_hits: 0, phrase_hits: 0, negative: 0 };
  return { skill, signals, bm25Raw: 0, topQuerySims: [q2qMax], heuristicManifest: false, matched: { keywords: [], phrases: [] }, nearestQuery: null, negative: null };
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
