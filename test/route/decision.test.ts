import { describe, expect, it } from "vitest";
import { decide } from "../../src/route/decide.js";
import { DEFAULT_PARAMS } from "../../src/route/index-params.js";
import type { RoutingParams } from "../../src/route/routing-params.js";

const params: RoutingParams = { ...DEFAULT_PARAMS, threshold: 0.6, heuristicThreshold: 0.3, minMargin: 0.1, skillThresholds: { picky: 0.9 } };
const evidence = { bm25: 0.7, lexicalHit: true, q2qMax: 0.8, retrieved: true, nearMiss: false };
const ranked = (...pairs: [string, number][]) => pairs.map(([name, confidence]) => ({ name, confidence, heuristicManifest: false, ...evidence }));
const floor = { bm25: 0.5, q2qMax: 0.6, samples: 100, indexVersion: 1 };

describe("decide", () => {
  it("injects when in scope clears the threshold and the lead clears the margin", () => {
    expect(decide(ranked(["a", 0.7], ["b", 0.1]), 0.8, params, { k: 3 })).toEqual({ decision: "inject", selected: ["a"], reason: null, threshold: 0.6, evidenceFloor: null });
  });

  it("abstains below the threshold", () => {
    expect(decide(ranked(["a", 0.5], ["b", 0.05]), 0.55, params, { k: 3 })).toMatchObject({ decision: "none", reason: "below_threshold" });
  });

  it("abstains when the runner-up is too close", () => {
    expect(decide(ranked(["a", 0.45], ["b", 0.4]), 0.9, params, { k: 3 })).toMatchObject({ decision: "none", reason: "small_margin" });
  });

  it("uses the heuristic-manifest threshold when the best skill's manifest is heuristic", () => {
    expect(decide([{ name: "h", confidence: 0.4, heuristicManifest: true, ...evidence }], 0.4, params, { k: 3 })).toMatchObject({ decision: "inject", threshold: 0.3 });
  });

  it("uses a skill's own threshold, and a request's threshold over every learned one", () => {
    expect(decide(ranked(["picky", 0.8]), 0.85, params, { k: 3 })).toMatchObject({ decision: "none", threshold: 0.9 });
    expect(decide(ranked(["picky", 0.8]), 0.85, params, { k: 3, threshold: 0.5 })).toMatchObject({ decision: "inject", threshold: 0.5 });
  });

  it("injects every candidate above the threshold in multi mode, up to k", () => {
    const many = ranked(["a", 0.45], ["b", 0.44], ["c", 0.43], ["d", 0.01]);
    expect(decide(many, 0.95, params, { k: 2, multi: true, threshold: 0.4 })).toMatchObject({ decision: "inject", selected: ["a", "b"] });
    expect(decide(many, 0.95, params, { k: 5, multi: true, threshold: 0.4 }).selected).toEqual(["a", "b", "c"]);
  });

  it("injects a skill the message calls by name past the floor, the threshold and the margin, and first in multi mode", () => {
    const guarded = { ...params, evidenceFloor: floor };
    const called = [{ name: "a", confidence: 0.05, heuristicManifest: true, bm25: 0, lexicalHit: false, q2qMax: 0.1, retrieved: true, nearMiss: false }, ...ranked(["b", 0.5], ["c", 0.45])];
    expect(decide(called, 0.1, guarded, { k: 3, invoked: true })).toMatchObject({ decision: "inject", selected: ["a"], reason: null });
    expect(decide(called, 0.1, guarded, { k: 3, invoked: true, multi: true, threshold: 0.4 }).selected).toEqual(["a", "b", "c"]);
    expect(decide(called, 0.1, guarded, { k: 3 })).toMatchObject({ decision: "none", reason: "no_evidence" });
  });

  it("refuses a best candidate whose manifest names the request as a near miss, unless the message calls it by name", () => {
    const [best, runnerUp] = ranked(["a", 0.9], ["b", 0.01]);
    const named = [{ ...best!, nearMiss: true }, runnerUp!];
    expect(decide(named, 0.99, params, { k: 3 })).toMatchObject({ decision: "none", reason: "near_miss" });
    expect(decide(named, 0.99, params, { k: 3, invoked: true })).toMatchObject({ decision: "inject", selected: ["a"] });
  });

  it("abstains with no lexical hit and a dense match below the floor, whatever the in-scope probability", () => {
    const guarded = { ...params, evidenceFloor: floor };
    const unsupported = [{ name: "a", confidence: 0.9, heuristicManifest: false, bm25: 0, lexicalHit: false, q2qMax: 0.55, retrieved: true, nearMiss: false }];
    expect(decide(unsupported, 0.99, guarded, { k: 3 })).toMatchObject({ decision: "none", reason: "no_evidence" });
    expect(decide([{ ...unsupported[0]!, q2qMax: 0.65 }], 0.99, guarded, { k: 3 })).toMatchObject({ decision: "inject" });
    expect(decide(unsupported, 0.99, params, { k: 3 })).toMatchObject({ decision: "inject" });
  });

  it("asks a heuristic manifest for BM25 at the lexical floor, except among an allow-list", () => {
    const guarded = { ...params, evidenceFloor: floor };
    const weak = [{ name: "h", confidence: 0.9, heuristicManifest: true, bm25: 0.4, lexicalHit: true, q2qMax: 0.9, retrieved: true, nearMiss: false }];
    expect(decide(weak, 0.99, guarded, { k: 3 })).toMatchObject({ decision: "none", reason: "no_evidence", evidenceFloor: { bm25: 0.5, q2qMax: 0.6 } });
    // the answer says which floor applied: none of BM25 among an allow-list
    expect(decide(weak, 0.99, guarded, { k: 3, restricted: true })).toMatchObject({ decision: "inject", evidenceFloor: { bm25: 0, q2qMax: 0.6 } });
    expect(decide([{ ...weak[0]!, bm25: 0.5 }], 0.99, guarded, { k: 3 })).toMatchObject({ decision: "inject" });
    expect(decide([{ ...weak[0]!, heuristicManifest: false }], 0.99, guarded, { k: 3 })).toMatchObject({ decision: "inject" });
  });

  it("refuses an allowed skill the whole index's retrievers do not find, even in multi mode", () => {
    const allowedOnly = [{ ...ranked(["a", 0.9])[0]!, retrieved: false }, ...ranked(["b", 0.05])];
    expect(decide(allowedOnly, 0.99, params, { k: 3, restricted: true })).toMatchObject({ decision: "none", reason: "not_retrieved" });
    expect(decide([...ranked(["b", 0.9]), allowedOnly[0]!], 0.99, params, { k: 3, restricted: true, multi: true, threshold: 0.4 }).selected).toEqual(["b"]);
    // a skill the message calls by name is still injected
    expect(decide(allowedOnly, 0.99, params, { k: 3, restricted: true, invoked: true })).toMatchObject({ decision: "inject", selected: ["a"] });
  });

  it("holds a query in a script the embedder cannot read to the floor measured on such queries", () => {
    const guarded = { ...params, evidenceFloor: { ...floor, bm25OtherScripts: 0.8 } };
    const chinese = [{ name: "h", confidence: 0.9, heuristicManifest: true, bm25: 0.7, lexicalHit: true, q2qMax: 0, retrieved: true, nearMiss: false }];
    expect(decide(chinese, 0.99, guarded, { k: 3, otherScript: true })).toMatchObject({ decision: "none", reason: "no_evidence", evidenceFloor: { bm25: 0.8 } });
    expect(decide(chinese, 0.99, guarded, { k: 3 })).toMatchObject({ decision: "inject" });
    expect(decide(chinese, 0.99, { ...params, evidenceFloor: floor }, { k: 3, otherScript: true })).toMatchObject({ decision: "inject" });
  });

  it("says when there is nothing to choose from", () => {
    expect(decide([], 0, params, { k: 3 })).toMatchObject({ decision: "none", reason: "no_candidates" });
  });
});
