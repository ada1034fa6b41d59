import { Matrix, solve } from "ml-matrix";

export interface LogisticModel {
  coefficients: number[];
  intercept: number;
}

export interface LogisticOptions {
  /** L2 penalty on the coefficients (not the intercept): keeps weights finite on separable data. */
  l2?: number;
  iterations?: number;
}

/**
 * Binary logistic regression by Newton's method (iteratively reweighted least squares). With a dozen
 * features the Hessian is tiny, so each step is an exact solve: no learning rate to tune, converges in ~10 steps.
 */
export function fitLogistic(rows: number[][], labels: number[], options: LogisticOptions = {}): LogisticModel {
  const l2 = options.l2 ?? 1e-3;
  const features = rows[0]?.length ?? 0;
  const size = features + 1; // last parameter is the intercept
  let beta = new Array<number>(size).fill(0);
  for (let iteration = 0; iteration < (options.iterations ?? 50); iteration++) {
    const gradient = new Array<number>(size).fill(0);
    const hessian = Array.from({ length: size }, () => new Array<number>(size).fill(0));
    rows.forEach((row, index) => {
      const x = [...row, 1];
      const p = 1 / (1 + Math.exp(-x.reduce((sum, value, j) => sum + value * beta[j]!, 0)));
      const weight = Math.max(p * (1 - p), 1e-9);
      const error = labels[index]! - p;
      for (let j = 0; j < size; j++) {
        gradient[j]! += error * x[j]!;
        for (let l = j; l < size; l++) hessian[j]![l]! += weight * x[j]! * x[l]!;
      }
    });
    for (let j = 0; j < size; j++) {
      for (let l = 0; l < j; l++) hessian[j]![l] = hessian[l]![j]!;
      if (j < features) {
        gradient[j]! -= l2 * rows.length * beta[j]!;
        hessian[j]![j]! += l2 * rows.length;
      }
    }
    const step = solve(new Matrix(hessian), Matrix.columnVector(gradient)).to1DArray();
    beta = beta.map((value, j) => value + step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return { coefficients: beta.slice(0, features), intercept: beta[features] ?? 0 };
}
