// skill-router/fit: learn an index's fusion weights, thresholds and abstain examples from labelled cases (`router fit`).
export { fitIndex } from "../route/fit/fit-index.js";
export type { FitIndexOptions, FitIndexReport } from "../route/fit/fit-index.js";
