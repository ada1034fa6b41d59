import { createError, isRouterError } from "../../errors.js";
import { parseEvalSet, type EvalSet } from "../../eval/eval-set.js";
import { computeMetrics, EVAL_K, type EvalMetrics } from "../../eval/metrics.js";
import { routeCase, scoredAnswer, type ScoredOutcome } from "../../eval/run-cases.js";
import { DEFAULT_SPLIT, splitCases } from "../../eval/split.js";
import { requireKnownSkills } from "../../route/known-skills.js";
import type { Router } from "../../route/router.js";
import { MAX_EVAL_CASES } from "../../contract/limits.js";
import type { RouteResult } from "../../contract/route.js";

const RELIABILITY_BINS = 10;
const EXAMPLES_PER_PAIR = 3;

export type EvalSplit = "test" | "train" | "all";

/** One labelled case as the explorer lists it: what was expected, what the router did, and how sure it was. */
export interface EvalRunCase {
  query: string;
  expected: string | null;
  /** The injected skill, or null for none. */
  answered: string | null;
  /** The best-ranked skill, injected or not. */
  top: string | null;
  confidence: number;
  reason: RouteResult["reason"];
}

/** A pair the router mixed up: expected one thing (a skill or none), answered another. */
export interface ConfusedPair {
  expected: string | null;
  answered: string | null;
  count: number;
  queries: string[];
}

/** One bin of the reliability diagram: cases whose best confidence fell in [low, high), and how often the best skill was right. */
export interface ReliabilityBin {
  low: number;
  high: number;
  cases: number;
  confidence: number | null;
  accuracy: number | null;
}

export interface EvalRun {
  split: EvalSplit;
  /** Cases in the whole set, before the split. */
  set_cases: number;
  metrics: EvalMetrics;
  confusion: ConfusedPair[];
  reliability: ReliabilityBin[];
  cases: EvalRunCase[];
  /** More than one when the index was reloaded during the run. */
  index_versions: number[];
  duration_ms: number;
}

/**
 * Routes an eval set's cases (one split, as `router eval` chooses it) against the live router and measures them,
 * stopping when `deadline` fires. The set is checked with src/eval's own reader, so the rules are `router eval`'s.
 */
export async function runEvalSet(router: Router, body: unknown, split: EvalSplit, deadline: AbortSignal | undefined): Promise<EvalRun> {
  const started = performance.now();
  const set = readSet(body);
  const cases = split === "all" ? set.cases : splitCases(set.cases, DEFAULT_SPLIT)[split];
  if (cases.length === 0) throw createError("INVALID_REQUEST", `The eval set has no cases in the ${split} split (${set.cases.length} in all): choose split=all`, { split });
  if (cases.length > MAX_EVAL_CASES) {
    throw createError("TOO_MANY_CASES", `The ${split} split holds ${cases.length} cases; one request routes at most ${MAX_EVAL_CASES} (run \`router eval\` for more)`, {
      cases: cases.length,
      max: MAX_EVAL_CASES,
    });
  }
  const known = new Set(router.skills().map((skill) => skill.name));
  requireKnownSkills(
    cases.flatMap((item) => (item.expected === null ? [] : [item.expected])),
    (name) => known.has(name),
  );

  const outcomes: (ScoredOutcome & { query: string; reason: RouteResult["reason"] })[] = [];
  const versions = new Set<number>();
  for (const item of cases) {
    if (deadline?.aborted) throw deadline.reason;
    const caseStarted = performance.now();
    const result = await routeCase(router, item.query, item.candidates, EVAL_K);
    versions.add(result.index_version);
    outcomes.push({ query: item.query, expected: item.expected, ...scoredAnswer(result), latencyMs: performance.now() - caseStarted, reason: result.reason });
  }
  return {
    split,
    set_cases: set.cases.length,
    metrics: computeMetrics(outcomes),
    confusion: confusedPairs(outcomes),
    reliability: reliabilityBins(outcomes),
    cases: outcomes.map((outcome) => ({
      query: outcome.query,
      expected: outcome.expected,
      answered: outcome.decision === "inject" ? (outcome.selected[0] ?? null) : null,
      top: outcome.ranked[0] ?? null,
      confidence: outcome.confidence,
      reason: outcome.reason,
    })),
    index_versions: [...versions].sort((a, b) => a - b),
    duration_ms: performance.now() - started,
  };
}

/** The set, read by `router eval`'s own rules; a body that breaks them is the client's fault, answered 400 INVALID_REQUEST. */
function readSet(body: unknown): EvalSet {
  try {
    return parseEvalSet(body, "The request body");
  } catch (error) {
    if (isRouterError(error) && error.code === "INVALID_ARGUMENT") throw createError("INVALID_REQUEST", error.message);
    throw error;
  }
}

/** Decisions that went wrong, grouped by (expected, answered), most frequent first. */
function confusedPairs(outcomes: (ScoredOutcome & { query: string })[]): ConfusedPair[] {
  const pairs = new Map<string, ConfusedPair>();
  for (const outcome of outcomes) {
    const answered = outcome.decision === "inject" ? (outcome.selected[0] ?? null) : null;
    if (answered === outcome.expected) continue;
    const key = JSON.stringify([outcome.expected, answered]);
    const pair = pairs.get(key) ?? { expected: outcome.expected, answered, count: 0, queries: [] };
    pair.count++;
    if (pair.queries.length < EXAMPLES_PER_PAIR) pair.queries.push(outcome.query);
    pairs.set(key, pair);
  }
  return [...pairs.values()].sort((a, b) => b.count - a.count || String(a.expected).localeCompare(String(b.expected)) || String(a.answered).localeCompare(String(b.answered)));
}

/** Equal-width bins of the best candidate's confidence against "the best candidate is the expected skill", as the ECE counts it. */
function reliabilityBins(outcomes: ScoredOutcome[]): ReliabilityBin[] {
  const bins = Array.from({ length: RELIABILITY_BINS }, (_, index) => ({ low: index / RELIABILITY_BINS, high: (index + 1) / RELIABILITY_BINS, cases: 0, confidence: 0, right: 0 }));
  for (const outcome of outcomes) {
    const bin = bins[Math.min(RELIABILITY_BINS - 1, Math.floor(outcome.confidence * RELIABILITY_BINS))]!;
    bin.cases++;
    bin.confidence += outcome.confidence;
    bin.right += outcome.expected !== null && outcome.ranked[0] === outcome.expected ? 1 : 0;
  }
  return bins.map(({ low, high, cases, confidence, right }) => ({ low, high, cases, confidence: cases > 0 ? confidence / cases : null, accuracy: cases > 0 ? right / cases : null }));
}
