// The library API: route in-process with `createRouter({ db })`, build an index with `runIndex`, store what was right with `recordFeedback`.
export { createRouter } from "./route/router.js";
export type { Router, RouterOptions, RouterStatus } from "./route/router.js";
export type { ContextMessage, Decision, NoneReason, Offer, OfferedSkill, OfferReason, RankedSkill, RouteOptions, RouteResult, RouteRisk, RouteTiming, Signals } from "./contract/route.js";
export { offerText } from "./contract/offer-text.js";
export { recordFeedback } from "./feedback/record-feedback.js";
export type { RecordedFeedback } from "./feedback/record-feedback.js";
export type { FeedbackRequest } from "./contract/feedback.js";
export type { FeedbackRole, FeedbackRow } from "./store/feedback-rows.js";
export { runIndex } from "./indexer/run-index.js";
export type { IndexOptions, IndexSummary } from "./indexer/run-index.js";
export { startServer } from "./server/serve.js";
export type { RunningServer, ServeOptions } from "./server/serve.js";
export { RouterError, ERROR_CATALOGUE } from "./errors.js";
export type { ErrorCode } from "./errors.js";
