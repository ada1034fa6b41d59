import { dotRow } from "../../models/vector-math.js";
import { FEATURES, rankingLogit, SCOPE_FEATURES, scopeProbability, scopeRow, shares, type FusionParams } from "../fusion.js";
import type { Router } from "../router.js";
import type { Evidence } from "../signals.js";
import { fitConditionalLogit } from "./conditional-logit.js";
import { fitLogistic } from "./logistic-regression.js";

/** A labelled routing case: the skill that should be injected, or null when none should. */
export interface LabelledCase {
  query: string;
  expected: string | null;
  /** When given, routing for this case is restricted to these skills. */
  candidates?: string[];
}

/** One case's candidates as the router scored them. */
export interface FitSample {
  query: string;
  expected: string | null;
  names: string[];
  evidence: Evidence[];
  features: number[][];
  vector: Float32Array;
}

export interface FitOptions {
  origin: string;
  embedder: string | null;
  /** The in-scope model to keep when the cases have no null (or no in-scope) cases to learn it from. */
  fallback: FusionParams;
  /** Share of in-scope cases that must still be routed; abstention is maximised under that constraint. */
  minRouted?: number;
  /** Learn the null cases as abstain examples, and per-skill thresholds (default). Off for parameters meant for other indexes. */
  indexSpecific?: boolean;
}

export interface FitResult {
  params: FusionParams;
  /** The null cases' queries, stored in the index so that similar requests are recognised at query time. */
  abstainExamples: { text: string; vector: Float32Array }[];
  /** Decision rates on the training cases at the chosen thresholds. */
  training: { cases: number; routed: number; abstained: number; correct: number };
}

export const DEFAULT_MIN_ROUTED = 0.9;
const THRESHOLDS = Array.from({ length: 99 }, (_, index) => 0.01 + index * 0.01);
const MARGINS = [0, 0.02, 0.05, 0.1, 0.15, 0.2];
const MIN_SKILL_CASES = 8;
const MIN_GROUP_CASES = 30;
// A skill's own threshold is pulled toward the global one until it has many cases of its own.
const SKILL_SHRINKAGE = 20;
const ABSTAIN_DEPTH = 3;

export async function collectSamples(router: Router, cases: LabelledCase[], onProgress?: (done: number, total: number) => void): Promise<FitSample[]> {
  const samples: FitSample[] = [];
  for (const [index, labelled] of cases.entries()) {
    const scored = await router.candidates(labelled.query, labelled.candidates ? { skills: labelled.candidates } : {});
    samples.push({ query: labelled.query, expected: labelled.expected, ...scored });
    onProgress?.(index + 1, cases.length);
  }
  return samples;
}

/**
 * Learns the fusion from labelled cases: a conditional logit that ranks the right skill first, the null
 * cases as abstain examples, a logistic in-scope model, then the in-scope threshold and margin that
 * abstain most while routing at least `minRouted` of in-scope cases, and per-skill thresholds where data allows.
 */
export function fitFusion(samples: FitSample[], options: FitOptions): FitResult {
  const groups = samples
    .filter((sample) => sample.expected !== null && sample.names.includes(sample.expected))
    .map((sample) => ({ rows: sample.features, chosen: sample.names.indexOf(sample.expected!) }));
  const weights = fitConditionalLogit(groups, FEATURES.length);
  const ranking = Object.fromEntries(FEATURES.map((feature, index) => [feature, weights[index]!])) as FusionParams["ranking"];

  const nulls = samples.filter((sample) => sample.expected === null);
  const indexSpecific = options.indexSpecific ?? true;
  const abstainExamples = !indexSpecific ? [] : uniqueByText(nulls.map((sample) => ({ text: sample.query, vector: sample.vector })));
  const draft: FusionParams = { ...options.fallback, ranking, embedder: options.embedder, origin: options.origin, skillThresholds: {} };
  const scopeInputs = samples.map((sample) => scopeInput(draft, sample, abstainExamples));
  const hasBoth = nulls.length > 0 && nulls.length < samples.length;
  const scope = hasBoth
    ? fitLogistic(
        scopeInputs.map((input) => input.row),
        samples.map((sample) => (sample.expected === null ? 0 : 1)),
      )
    : undefined;
  const params: FusionParams = {
    ...draft,
    scope: scope
      ? { weights: Object.fromEntries(SCOPE_FEATURES.map((feature, index) => [feature, scope.coefficients[index]!])) as FusionParams["scope"]["weights"], bias: scope.intercept }
      : { ...options.fallback.scope, weights: { ...options.fallback.scope.weights, abstain_sim: 0 } },
  };

  const decisions = samples.map((sample, index) => decisionInput(params, sample, scopeInputs[index]!));
  const minRouted = routingTarget(options.minRouted ?? DEFAULT_MIN_ROUTED, decisions.filter((decision) => decision.expected !== null).length);
  Object.assign(params, chooseRule(decisions, minRouted));
  const skillThresholds = indexSpecific ? perSkillThresholds(decisions, params) : {};
  // Per-skill thresholds must not undo the routing constraint the others were chosen for.
  if (rates(decisions, { ...params, skillThresholds }).routed >= minRouted || !hasBoth) params.skillThresholds = skillThresholds;
  const training = rates(decisions, params);
  return { params, abstainExamples, training: { cases: samples.length, ...training } };
}

/**
 * The training routing rate to aim for: the requested one plus one standard error, so that new cases (which
 * the threshold was not chosen on) still reach the requested rate more often than not.
 */
function routingTarget(requested: number, positives: number): number {
  return positives > 0 ? Math.min(1, requested + Math.sqrt((requested * (1 - requested)) / positives)) : requested;
}

interface DecisionInput {
  expected: string | null;
  top: string | undefined;
  heuristic: boolean;
  correct: boolean;
  inScope: number;
  margin: number;
}

function scopeInput(params: FusionParams, sample: FitSample, abstain: { text: string; vector: Float32Array }[]): { row: number[]; logits: number[] } {
  const logits = sample.features.map((row) => rankingLogit(params, row));
  const order = logits.map((_, index) => index).sort((a, b) => logits[b]! - logits[a]!);
  const [first, second] = order;
  // A training query must not find itself among the abstain examples: leave it out.
  const sims = abstain
    .filter((example) => example.text !== sample.query)
    .map((example) => dotRow(sample.vector, example.vector, 0, sample.vector.length))
    .sort((a, b) => b - a)
    .slice(0, ABSTAIN_DEPTH);
  const abstainSim = sims.length > 0 ? sims.reduce((sum, value) => sum + value, 0) / sims.length : 0;
  if (first === undefined) return { row: SCOPE_FEATURES.map(() => 0), logits };
  return { row: scopeRow(sample.evidence[first]!, logits[first]!, second === undefined ? -Infinity : logits[second]!, abstainSim), logits };
}

function decisionInput(params: FusionParams, sample: FitSample, input: { row: number[]; logits: number[] }): DecisionInput {
  const probabilities = input.logits.length > 0 ? shares(input.logits) : [];
  const order = probabilities.map((_, index) => index).sort((a, b) => probabilities[b]! - probabilities[a]!);
  const top = order[0] === undefined ? undefined : sample.names[order[0]];
  const inScope = input.logits.length > 0 ? scopeProbability(params, input.row) : 0;
  const first = order[0] === undefined ? 0 : probabilities[order[0]]!;
  const second = order[1] === undefined ? 0 : probabilities[order[1]]!;
  const heuristic = order[0] !== undefined && sample.evidence[order[0]]!.heuristicManifest;
  return { expected: sample.expected, top, heuristic, correct: top !== undefined && top === sample.expected, inScope, margin: inScope * (first - second) };
}

/** The decision rule of src/route/decision.ts, replayed on a training case. */
interface Rule {
  threshold: number;
  heuristicThreshold: number;
  minMargin: number;
  skillThresholds: Record<string, number>;
}

function injects(decision: DecisionInput, rule: Rule): boolean {
  if (decision.top === undefined) return false;
  const own = rule.skillThresholds[decision.top] ?? (decision.heuristic ? rule.heuristicThreshold : rule.threshold);
  return decision.inScope >= own && decision.margin >= rule.minMargin;
}

function rates(decisions: DecisionInput[], rule: Rule): { routed: number; abstained: number; correct: number } {
  let positives = 0;
  let routed = 0;
  let correct = 0;
  let negatives = 0;
  let abstained = 0;
  for (const decision of decisions) {
    const inject = injects(decision, rule);
    if (decision.expected === null) {
      negatives++;
      if (!inject) abstained++;
    } else {
      positives++;
      if (inject) routed++;
      if (inject && decision.correct) correct++;
    }
  }
  return { routed: positives > 0 ? routed / positives : 0, abstained: negatives > 0 ? abstained / negatives : 0, correct: positives > 0 ? correct / positives : 0 };
}

/**
 * The in-scope threshold and margin that abstain most while routing at least `minRouted` of in-scope cases
 * (ties go to more correct injections). Heuristic manifests get a threshold of their own when there are
 * enough cases of each kind: their similarities run on another scale.
 */
function chooseRule(decisions: DecisionInput[], minRouted: number): Omit<Rule, "skillThresholds"> {
  const pooled = chooseThreshold(decisions, minRouted, MARGINS);
  const heuristic = decisions.filter((decision) => decision.heuristic);
  const written = decisions.filter((decision) => !decision.heuristic);
  const own = (group: DecisionInput[]) => (hasBothKinds(group) ? chooseThreshold(group, minRouted, [pooled.minMargin]).threshold : pooled.threshold);
  return { threshold: own(written), heuristicThreshold: own(heuristic), minMargin: pooled.minMargin };
}

function hasBothKinds(group: DecisionInput[]): boolean {
  const nulls = group.filter((decision) => decision.expected === null).length;
  return nulls >= MIN_GROUP_CASES && group.length - nulls >= MIN_GROUP_CASES;
}

function chooseThreshold(decisions: DecisionInput[], minRouted: number, margins: number[]): { threshold: number; minMargin: number } {
  let best = { threshold: THRESHOLDS[0]!, minMargin: margins[0]!, abstained: -1, correct: -1 };
  for (const minMargin of margins) {
    for (const threshold of THRESHOLDS) {
      const rate = rates(decisions, { threshold, heuristicThreshold: threshold, minMargin, skillThresholds: {} });
      if (rate.routed < minRouted) continue;
      if (rate.abstained > best.abstained + 1e-9 || (Math.abs(rate.abstained - best.abstained) <= 1e-9 && rate.correct > best.correct + 1e-9)) {
        best = { threshold, minMargin, abstained: rate.abstained, correct: rate.correct };
      }
    }
  }
  return { threshold: best.threshold, minMargin: best.minMargin };
}

/** For skills that often rank first: the threshold that best separates their right and wrong injections. */
function perSkillThresholds(decisions: DecisionInput[], rule: Omit<Rule, "skillThresholds">): Record<string, number> {
  const bySkill = new Map<string, DecisionInput[]>();
  for (const decision of decisions) {
    if (decision.top === undefined) continue;
    const list = bySkill.get(decision.top);
    if (list) list.push(decision);
    else bySkill.set(decision.top, [decision]);
  }
  const thresholds: Record<string, number> = {};
  for (const [name, own] of bySkill) {
    const right = own.filter((decision) => decision.correct).length;
    const wrong = own.length - right;
    if (own.length < MIN_SKILL_CASES || right === 0 || wrong === 0) continue;
    const global = own[0]!.heuristic ? rule.heuristicThreshold : rule.threshold;
    let bestThreshold = global;
    let bestScore = -1;
    for (const threshold of THRESHOLDS) {
      const kept = own.filter((decision) => decision.correct && decision.inScope >= threshold).length / right;
      const rejected = own.filter((decision) => !decision.correct && decision.inScope < threshold).length / wrong;
      if (kept + rejected > bestScore + 1e-9) [bestScore, bestThreshold] = [kept + rejected, threshold];
    }
    const weight = own.length / (own.length + SKILL_SHRINKAGE);
    const shrunk = weight * bestThreshold + (1 - weight) * global;
    if (Math.abs(shrunk - global) > 0.02) thresholds[name] = Math.round(shrunk * 1000) / 1000;
  }
  return thresholds;
}

function uniqueByText<T extends { text: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.text) && seen.add(item.text));
}
