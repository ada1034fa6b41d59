import type { AbstainExamples } from "../store/abstain-examples.js";
import { decide, rankedCandidate, type DecisionParams, type RankedCandidate } from "../route/decide.js";
import { FEATURES, SCOPE_FEATURES, type RoutingParams } from "../route/routing-params.js";
import { routableQuery } from "../contract/limits.js";
import type { Router, ScoredCandidates } from "../route/router.js";
import { scoreCandidates, type Scoring } from "../route/score.js";
import { abstainSimilarity } from "../route/signals.js";
import { fitConditionalLogit, rescaleToFit } from "./conditional-logit.js";
import { fitLogistic } from "./logistic-regression.js";

/** A labelled routing case: the skill that should be injected, or null when none should. */
export interface LabelledCase {
  query: string;
  expected: string | null;
  /** When given, routing for this case is restricted to these skills. */
  candidates?: string[];
}

/** One case's candidates as the router scored them, with the case's label. */
export type FitSample = ScoredCandidates & { query: string; expected: string | null };

export interface FitOptions {
  origin: string;
  embedder: string | null;
  /** The in-scope model to keep when the cases have no null (or no in-scope) cases to learn it from. */
  fallback: RoutingParams;
  /** Share of in-scope cases that must still be routed; abstention is maximised under that constraint. */
  minRouted?: number;
  /**
   * Choose the threshold and margin that answer the most labels right (in-scope cases injected rightly, none cases
   * answered none) instead of abstaining most under `minRouted`: for labels of the index's own traffic, near misses
   * among them, which routing 90% of in-scope cases would inject.
   */
  mostRight?: boolean;
  /** Learn the null cases as abstain examples, and per-skill thresholds (default). Off for parameters meant for other indexes. */
  indexSpecific?: boolean;
  /** Added to the learned ranking weights before the in-scope model is fitted on them (a prior for unseen collections). */
  rankingPrior?: Partial<RoutingParams["ranking"]>;
}

export interface FitResult {
  params: RoutingParams;
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

export async function collectSamples(router: Router, cases: LabelledCase[], onProgress?: (done: number, total: number) => void): Promise<FitSample[]> {
  const samples: FitSample[] = [];
  for (const [index, labelled] of cases.entries()) {
    const scored = await router.candidates(routableQuery(labelled.query), labelled.candidates ? { skills: labelled.candidates } : {});
    samples.push({ query: labelled.query, expected: labelled.expected, ...scored });
    onProgress?.(index + 1, cases.length);
  }
  return samples;
}

/**
 * Learns the routing parameters from labelled cases: a conditional logit that ranks the right skill first, the null
 * cases as abstain examples, a logistic in-scope model, then the in-scope threshold and margin that
 * abstain most while routing at least `minRouted` of in-scope cases, and per-skill thresholds where data allows.
 */
export function fitParams(samples: FitSample[], options: FitOptions): FitResult {
  // A case whose skill is not among its choices teaches the ranking nothing.
  const groups = samples.flatMap((sample) => {
    const chosen = sample.expected === null ? -1 : sample.names.indexOf(sample.expected);
    return chosen >= 0 && chosen < sample.choices ? [{ rows: sample.features.slice(0, sample.choices), chosen }] : [];
  });
  const fitted = fitConditionalLogit(groups, FEATURES.length);
  const prior = options.rankingPrior;
  // A prior moves the weights' direction; their length is fitted again so that shares stay calibrated.
  const weights = prior
    ? rescaleToFit(
        groups,
        FEATURES.map((feature, index) => fitted[index]! + (prior[feature] ?? 0)),
      )
    : fitted;
  const ranking = Object.fromEntries(FEATURES.map((feature, index) => [feature, weights[index]!])) as RoutingParams["ranking"];

  const nulls = samples.filter((sample) => sample.expected === null);
  const indexSpecific = options.indexSpecific ?? true;
  const abstainExamples = !indexSpecific ? [] : uniqueByText(nulls.map((sample) => ({ text: sample.query, vector: sample.vector })));
  const abstain = packAbstainExamples(abstainExamples);
  // A training query must not find itself among the abstain examples: leave it out.
  const abstainSims = samples.map((sample) => (sample.readable ? abstainSimilarity(abstain, sample.vector, (row) => abstain.texts[row] === sample.query) : 0));
  const draft: RoutingParams = { ...options.fallback, ranking, embedder: options.embedder, origin: options.origin, skillThresholds: {} };
  const hasBoth = nulls.length > 0 && nulls.length < samples.length;
  const scope = hasBoth
    ? fitLogistic(
        // The in-scope model's inputs depend only on the ranking weights, already learned.
        samples.map((sample, index) => scoreSample(draft, sample, abstainSims[index]!).scopeFeatures).map((row) => (row.length > 0 ? row : SCOPE_FEATURES.map(() => 0))),
        samples.map((sample) => (sample.expected === null ? 0 : 1)),
      )
    : undefined;
  const params: RoutingParams = {
    ...draft,
    scope: scope
      ? { weights: Object.fromEntries(SCOPE_FEATURES.map((feature, index) => [feature, scope.coefficients[index]!])) as RoutingParams["scope"]["weights"], bias: scope.intercept }
      : { ...options.fallback.scope, weights: { ...options.fallback.scope.weights, abstain_sim: 0 } },
  };

  const decisions = samples.map((sample, index) => decisionInput(sample, scoreSample(params, sample, abstainSims[index]!)));
  const minRouted = options.mostRight ? 0 : routingTarget(options.minRouted ?? DEFAULT_MIN_ROUTED, decisions.filter((decision) => decision.expected !== null).length);
  Object.assign(params, chooseRule(decisions, minRouted, options.mostRight ?? false));
  const skillThresholds = indexSpecific ? perSkillThresholds(decisions, params) : {};
  // Per-skill thresholds must not undo the routing constraint the others were chosen for.
  if (rates(decisions, { ...params, skillThresholds }).routed >= minRouted || !hasBoth) params.skillThresholds = skillThresholds;
  const training = rates(decisions, params);
  return { params, abstainExamples, training: { cases: samples.length, ...training } };
}

/** A sample scored as routing scores it: only its choices may be chosen, against the context of the rest. */
function scoreSample(params: RoutingParams, sample: FitSample, abstainSim: number): Scoring {
  if (sample.choices === sample.evidence.length) return scoreCandidates(params, sample.evidence, sample.features, abstainSim);
  const eligible = new Set(sample.evidence.slice(0, sample.choices).map((evidence) => evidence.skill));
  return scoreCandidates(params, sample.evidence, sample.features, abstainSim, (skill) => eligible.has(skill));
}

/**
 * The training routing rate to aim for: the requested one plus one standard error, so that new cases (which
 * the threshold was not chosen on) still reach the requested rate more often than not.
 */
function routingTarget(requested: number, positives: number): number {
  return positives > 0 ? Math.min(1, requested + Math.sqrt((requested * (1 - requested)) / positives)) : requested;
}

/** A training case as the decision rule sees it: its two best candidates and P(in scope). */
interface DecisionInput {
  expected: string | null;
  /** The best candidate is the expected skill. */
  correct: boolean;
  inScope: number;
  best: RankedCandidate[];
}

function decisionInput(sample: FitSample, scoring: Scoring): DecisionInput {
  const positions = new Map(sample.evidence.map((evidence, index) => [evidence, index]));
  const best = scoring.ranked.slice(0, 2).map((item) => {
    const at = positions.get(item.evidence)!;
    return rankedCandidate(sample.names[at]!, item.confidence, item.evidence, sample.retrieved[at], sample.nearMiss[at]);
  });
  return { expected: sample.expected, correct: best[0] !== undefined && best[0].name === sample.expected, inScope: scoring.inScope, best };
}

function packAbstainExamples(examples: { text: string; vector: Float32Array }[]): AbstainExamples {
  const dimension = examples[0]?.vector.length ?? 0;
  const matrix = new Float32Array(examples.length * dimension);
  examples.forEach((example, row) => matrix.set(example.vector, row * dimension));
  return { texts: examples.map((example) => example.text), matrix };
}

/** The same rule every request applies (src/route/decision.ts), on a training case. */
function injects(decision: DecisionInput, rule: DecisionParams): boolean {
  return decide(decision.best, decision.inScope, rule, { k: 1 }).decision === "inject";
}

function rates(decisions: DecisionInput[], rule: DecisionParams): { routed: number; abstained: number; correct: number } {
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
function chooseRule(decisions: DecisionInput[], minRouted: number, mostRight: boolean): Omit<DecisionParams, "skillThresholds"> {
  const pooled = chooseThreshold(decisions, minRouted, MARGINS, mostRight);
  const heuristic = decisions.filter(isHeuristic);
  const written = decisions.filter((decision) => !isHeuristic(decision));
  const own = (group: DecisionInput[]) => (hasBothKinds(group) ? chooseThreshold(group, minRouted, [pooled.minMargin], mostRight).threshold : pooled.threshold);
  return { threshold: own(written), heuristicThreshold: own(heuristic), minMargin: pooled.minMargin };
}

function hasBothKinds(group: DecisionInput[]): boolean {
  const nulls = group.filter((decision) => decision.expected === null).length;
  return nulls >= MIN_GROUP_CASES && group.length - nulls >= MIN_GROUP_CASES;
}

function chooseThreshold(decisions: DecisionInput[], minRouted: number, margins: number[], mostRight = false): { threshold: number; minMargin: number } {
  const positives = decisions.filter((decision) => decision.expected !== null).length / Math.max(1, decisions.length);
  let best = { threshold: THRESHOLDS[0]!, minMargin: margins[0]!, abstained: -1, correct: -1, score: -1 };
  for (const minMargin of margins) {
    for (const threshold of THRESHOLDS) {
      const rate = rates(decisions, { threshold, heuristicThreshold: threshold, minMargin, skillThresholds: {} });
      if (mostRight) {
        // The share of labels answered right: the rates weighted by how many labels of each kind there are.
        const score = positives * rate.correct + (1 - positives) * rate.abstained;
        if (score > best.score + 1e-9) best = { threshold, minMargin, abstained: rate.abstained, correct: rate.correct, score };
        continue;
      }
      if (rate.routed < minRouted) continue;
      if (rate.abstained > best.abstained + 1e-9 || (Math.abs(rate.abstained - best.abstained) <= 1e-9 && rate.correct > best.correct + 1e-9)) {
        best = { threshold, minMargin, abstained: rate.abstained, correct: rate.correct, score: -1 };
      }
    }
  }
  return { threshold: best.threshold, minMargin: best.minMargin };
}

/** For skills that often rank first: the threshold that best separates their right and wrong injections. */
function perSkillThresholds(decisions: DecisionInput[], rule: Omit<DecisionParams, "skillThresholds">): Record<string, number> {
  const bySkill = new Map<string, DecisionInput[]>();
  for (const decision of decisions) {
    const top = decision.best[0]?.name;
    if (top === undefined) continue;
    const list = bySkill.get(top);
    if (list) list.push(decision);
    else bySkill.set(top, [decision]);
  }
  const thresholds: Record<string, number> = {};
  for (const [name, own] of bySkill) {
    const right = own.filter((decision) => decision.correct).length;
    const wrong = own.length - right;
    if (own.length < MIN_SKILL_CASES || right === 0 || wrong === 0) continue;
    const global = isHeuristic(own[0]!) ? rule.heuristicThreshold : rule.threshold;
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

/** The best candidate's manifest is heuristic (such cases get a threshold of their own). */
function isHeuristic(decision: DecisionInput): boolean {
  return decision.best[0]?.heuristicManifest ?? false;
}

function uniqueByText<T extends { text: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.text) && seen.add(item.text));
}
