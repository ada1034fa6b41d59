import { Matrix, solve } from "ml-matrix";
import { shares } from "../route/routing-params.js";

/** One query's candidates (feature rows) and which of them is the right one. */
export interface ChoiceGroup {
  rows: number[][];
  chosen: number;
}

/**
 * Conditional logit (softmax over each query's own candidates), fitted by damped Newton steps: it learns
 * weights that put the right skill first, which is what ranking needs (plain per-candidate logistic
 * regression spends itself on the many easy negatives).
 */
export function fitConditionalLogit(groups: ChoiceGroup[], features: number, l2 = 0.01, iterations = 40): number[] {
  let weights = new Array<number>(features).fill(0);
  let current = logLikelihood(groups, weights, l2);
  for (let iteration = 0; iteration < iterations; iteration++) {
    const gradient = weights.map((weight) => -l2 * weight);
    const hessian = Array.from({ length: features }, (_, j) => Array.from({ length: features }, (_, l) => (j === l ? l2 : 0)));
    for (const group of groups) {
      const probabilities = shares(group.rows.map((row) => dot(row, weights)));
      const mean = new Array<number>(features).fill(0);
      group.rows.forEach((row, c) => row.forEach((value, j) => (mean[j]! += probabilities[c]! * value)));
      const chosen = group.rows[group.chosen]!;
      for (let j = 0; j < features; j++) gradient[j]! += chosen[j]! - mean[j]!;
      group.rows.forEach((row, c) => {
        const p = probabilities[c]!;
        for (let j = 0; j < features; j++) {
          const dj = row[j]! - mean[j]!;
          for (let l = j; l < features; l++) hessian[j]![l]! += p * dj * (row[l]! - mean[l]!);
        }
      });
    }
    for (let j = 0; j < features; j++) for (let l = 0; l < j; l++) hessian[j]![l] = hessian[l]![j]!;
    const step = solve(new Matrix(hessian), Matrix.columnVector(gradient)).to1DArray();
    // Backtrack until the likelihood improves: full Newton steps overshoot from the flat start.
    let scale = 1;
    let next = weights.map((weight, j) => weight + step[j]!);
    let nextValue = logLikelihood(groups, next, l2);
    while (nextValue < current && scale > 1e-6) {
      scale /= 2;
      next = weights.map((weight, j) => weight + scale * step[j]!);
      nextValue = logLikelihood(groups, next, l2);
    }
    if (nextValue < current) break;
    const moved = Math.max(...step.map((value) => Math.abs(value * scale)));
    [weights, current] = [next, nextValue];
    if (moved < 1e-7) break;
  }
  return weights;
}

/**
 * The same direction of weights, rescaled to the length that fits the groups best: shares stay calibrated when
 * the direction was moved by hand (a prior). A golden-section search over the scale.
 */
export function rescaleToFit(groups: ChoiceGroup[], weights: number[]): number[] {
  const at = (scale: number) =>
    logLikelihood(
      groups,
      weights.map((weight) => weight * scale),
      0,
    );
  let [low, high] = [0.05, 4];
  const ratio = (Math.sqrt(5) - 1) / 2;
  for (let step = 0; step < 40; step++) {
    const left = high - ratio * (high - low);
    const right = low + ratio * (high - low);
    if (at(left) < at(right)) low = left;
    else high = right;
  }
  const scale = (low + high) / 2;
  return weights.map((weight) => weight * scale);
}

function logLikelihood(groups: ChoiceGroup[], weights: number[], l2: number): number {
  let total = (-l2 / 2) * dot(weights, weights);
  for (const group of groups) {
    const logits = group.rows.map((row) => dot(row, weights));
    const top = Math.max(...logits);
    total += logits[group.chosen]! - top - Math.log(logits.reduce((sum, value) => sum + Math.exp(value - top), 0));
  }
  return total;
}

function dot(a: number[], b: number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
