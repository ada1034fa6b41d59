import { describe, expect, it } from "vitest";
import { fitConditionalLogit, rescaleToFit } from "../../src/fit/conditional-logit.js";
import { collectSamples, fitParams } from "../../src/fit/fit-params.js";
import { fitIndex } from "../../src/fit/fit-index.js";
import { DEFAULT_PARAMS } from "../../src/route/index-params.js";
import { fitLogistic } from "../../src/fit/logistic-regression.js";
import { createRouter } from "../../src/route/router.js";
import { splitCases } from "../../src/eval/split.js";
import { tempDir } from "../helpers/fixtures.js";
import { indexSkillSet } from "../helpers/skill-set.js";

/** A deterministic pseudo-random stream (tests must not depend on Math.random). */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

describe("fitLogistic", () => {
  it("recovers the weights that generated the labels", () => {
    const next = random(7);
    const rows: number[][] = [];
    const labels: number[] = [];
    for (let i = 0; i < 4000; i++) {
      const row = [next() * 4 - 2, next() * 4 - 2];
      rows.push(row);
      labels.push(next() < 1 / (1 + Math.exp(-(2 * row[0]! - 1 * row[1]! + 0.5))) ? 1 : 0);
    }
    const model = fitLogistic(rows, labels, { l2: 0 });
    expect(model.coefficients[0]).toBeCloseTo(2, 0);
    expect(model.coefficients[1]).toBeCloseTo(-1, 0);
    expect(model.intercept).toBeCloseTo(0.5, 0);
  });
});

describe("fitConditionalLogit", () => {
  it("learns to put the right candidate first", () => {
    const next = random(11);
    // The right candidate has the larger first feature; the second feature is noise.
    const groups = Array.from({ length: 300 }, () => {
      const rows = Array.from({ length: 5 }, () => [next(), next()]);
      const chosen = rows.reduce((best, row, index) => (row[0]! > rows[best]![0]! ? index : best), 0);
      return { rows, chosen };
    });
    const [signal, noise] = fitConditionalLogit(groups, 2);
    expect(signal!).toBeGreaterThan(5);
    expect(Math.abs(noise!)).toBeLessThan(signal! / 5);
  });

  it("rescales hand-moved weights to the length the data supports, keeping their direction", () => {
    const next = random(13);
    const groups = Array.from({ length: 300 }, () => {
      const rows = Array.from({ length: 4 }, () => [next()]);
      // The first feature picks the right candidate only three times in four: a modest weight fits best.
      const best = rows.reduce((top, row, index) => (row[0]! > rows[top]![0]! ? index : top), 0);
      return { rows, chosen: next() < 0.75 ? best : (best + 1) % rows.length };
    });
    const fitted = fitConditionalLogit(groups, 1)[0]!;
    for (const start of [fitted * 3, fitted / 3]) {
      const [rescaled] = rescaleToFit(groups, [start]);
      expect(rescaled! / fitted).toBeCloseTo(1, 1);
    }
  });
});

const WEATHER = ["what is the weather in Paris", "current temperature in Rome", "is it windy in Oslo now", "weather in Madrid please", "how warm is it in Athens"];
const K8S = ["my pod is in CrashLoopBackOff", "kubernetes deployment stuck", "pod keeps restarting after deploy", "kubectl shows OOMKilled", "container restarts in my cluster"];
const SQL = ["this postgres query is slow", "EXPLAIN ANALYZE shows a seq scan", "which index should I add to this table", "slow database query", "speed up my SQL join"];
const NONE = [
  "tell me a joke",
  "what's the capital of France",
  "write me a poem about the sea",
  "who won the world cup in 2010",
  "how many legs does a spider have",
  "translate hello into Spanish",
  "good morning!",
  "recommend a novel to read",
];

describe("fitIndex", () => {
  it("learns from labelled cases, stores the result, and reports on held-out cases only", async () => {
    const { db } = await indexSkillSet(tempDir());
    const cases = [
      ...WEATHER.map((query) => ({ query, expected: "get_current_weather" })),
      ...K8S.map((query) => ({ query, expected: "k8s-debug" })),
      ...SQL.map((query) => ({ query, expected: "sql-query-review" })),
      ...NONE.map((query) => ({ query, expected: null })),
    ];
    const { train, test } = splitCases(cases, { testFraction: 0.3, seed: "fit-test" });
    expect(train.length).toBeGreaterThan(0);
    expect(test.length).toBeGreaterThan(0);
    const report = await fitIndex({ db, train, test, origin: "test fit", minRouted: 0.8 });

    expect(report.training.routed).toBeGreaterThanOrEqual(0.8);
    expect(report.abstainExamples).toBe(train.filter((item) => item.expected === null).length);
    expect(report.heldOut?.cases).toBe(test.length);
    expect(report.params.embedder).toBe("use-lite-512");
    expect(Object.values(report.params.ranking).every(Number.isFinite)).toBe(true);

    const router = await createRouter({ db });
    try {
      expect(router.status().fusion).toBe("test fit");
      expect((await router.route("what's the weather in Lisbon")).selected).toEqual(["get_current_weather"]);
    } finally {
      await router.close();
    }
  });

  it("learns allow-list cases as routing scores them: chosen among the allowed, against the rest of the index", async () => {
    const { db } = await indexSkillSet(tempDir());
    const router = await createRouter({ db });
    let samples: Awaited<ReturnType<typeof collectSamples>>;
    try {
      samples = await collectSamples(router, [
        ...K8S.map((query) => ({ query, expected: "k8s-debug", candidates: ["k8s-debug", "sql-query-review"] })),
        ...NONE.map((query) => ({ query, expected: null, candidates: ["get_current_weather"] })),
        ...WEATHER.map((query) => ({ query, expected: "get_current_weather" })),
      ]);
    } finally {
      await router.close();
    }
    const restricted = samples[0]!;
    expect(restricted.choices).toBe(2);
    expect(restricted.names.slice(0, 2).sort()).toEqual(["k8s-debug", "sql-query-review"]);
    expect(restricted.names.length).toBeGreaterThan(2);
    const { params } = fitParams(samples, { origin: "t", embedder: "use-lite-512", fallback: DEFAULT_PARAMS, minRouted: 0.8 });
    expect(Object.values(params.ranking).every(Number.isFinite)).toBe(true);
    expect(Number.isFinite(params.scope.bias)).toBe(true);
  });

  it("counts an allowed skill the whole index does not retrieve as refused, as routing does", async () => {
    const { db } = await indexSkillSet(tempDir());
    // One candidate per retriever: for these requests the whole index's retrievers find k8s-debug, not pdf-extract.
    const router = await createRouter({ db, candidatesPerRetriever: 1 });
    let samples: Awaited<ReturnType<typeof collectSamples>>;
    try {
      samples = await collectSamples(router, [
        ...K8S.slice(0, 3).map((query) => ({ query, expected: "pdf-extract", candidates: ["pdf-extract"] })),
        ...WEATHER.slice(0, 3).map((query) => ({ query, expected: "get_current_weather" })),
      ]);
      expect((await router.route(K8S[0]!, { skills: ["pdf-extract"] })).reason).toBe("not_retrieved");
    } finally {
      await router.close();
    }
    const restricted = samples[0]!;
    expect(restricted.retrieved[restricted.names.indexOf("pdf-extract")]).toBe(false);
    expect(restricted.retrieved[restricted.names.indexOf("k8s-debug")]).toBe(true);
    expect(samples.at(-1)!.retrieved.every(Boolean)).toBe(true);
    // Routing refuses the three allow-listed cases whatever the threshold, so fit cannot count them as routed.
    const { training } = fitParams(samples, { origin: "t", embedder: "use-lite-512", fallback: DEFAULT_PARAMS, minRouted: 0.9 });
    expect(training.routed).toBeLessThanOrEqual(0.5);
  });

  it("refuses cases that expect skills the index does not have", async () => {
    const { db } = await indexSkillSet(tempDir());
    await expect(fitIndex({ db, train: [{ query: "x", expected: "not-a-skill" }], test: [], origin: "t" })).rejects.toMatchObject({ code: "UNKNOWN_SKILLS" });
  });
});
