// skill-router/eval: labelled cases in, routing metrics out; what `router eval` and the benchmarks use.
export { readEvalSet, parseEvalSet } from "../eval/eval-set.js";
export type { EvalCase, EvalSet } from "../eval/eval-set.js";
export { readEvalFile } from "../eval/eval-file.js";
export type { EvalFile } from "../eval/eval-file.js";
export { isTriggerEval, parseTriggerEval, triggerCases } from "../eval/trigger-eval.js";
export type { TriggerEval } from "../eval/trigger-eval.js";
export { DEFAULT_SPLIT, splitCases } from "../eval/split.js";
export type { SplitOptions } from "../eval/split.js";
export { routeCase, runCases } from "../eval/run-cases.js";
export type { CaseOutcome, ScoredOutcome } from "../eval/run-cases.js";
export { computeMetrics, EVAL_K, percentiles } from "../eval/metrics.js";
export type { EvalMetrics } from "../eval/metrics.js";
export { checkGates } from "../eval/gates.js";
export type { GateResult, Gates } from "../eval/gates.js";
export { listFailures } from "../eval/failures.js";
export type { Failure } from "../eval/failures.js";
export { evaluateFile } from "../eval/evaluate-file.js";
export type { EvalReport, EvaluateOptions, SplitChoice } from "../eval/evaluate-file.js";
