// skill-router/fit: learn an index's ranking weights, thresholds and abstain examples from labelled cases (`router fit`).
export { fitIndex } from "../fit/fit-index.js";
export type { FitIndexOptions, FitIndexReport } from "../fit/fit-index.js";
