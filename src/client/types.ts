// The HTTP API's request and response shapes: the contract's own types (src/contract), so the two cannot drift.
import type { RouteResult } from "../contract/route.js";

export type {
  ContextMessage,
  Decision,
  NoneReason,
  Offer,
  OfferedSkill,
  OfferReason,
  RankedSkill,
  RouteOptions,
  RouteRequest,
  RouteResult,
  RouteRisk,
  RouteTiming,
  Signals,
  SkillKind,
} from "../contract/route.js";
export type { ErrorBody, SkillDetail, SkillMetadataWire as SkillMetadata, SkillSummary } from "../contract/skills.js";
export type { FeedbackEntry, FeedbackRequest, FeedbackResult } from "../contract/feedback.js";

/** What went wrong when the client got no answer from the router. */
export interface RouterFailure {
  /** A server error code (`QUERY_TOO_LONG`, `NOT_READY`, ...) or a client one (`ROUTER_UNREACHABLE`, `ROUTER_TIMEOUT`, `ABORTED`, `BAD_RESPONSE`). */
  code: string;
  message: string;
  /** The HTTP status, when the router answered at all. */
  status?: number;
}

/**
 * `route()`'s answer when the router gave none: an abstention the agent can act on like any other.
 * `router_unavailable`: unreachable, too slow, or failing (5xx, 429); `request_rejected`: the router refused the request (4xx).
 */
export interface RouteFallback {
  decision: "none";
  selected: [];
  offer: null;
  skills: [];
  reason: "router_unavailable" | "request_rejected";
  error: RouterFailure;
}

/** What `route()` resolves to: the router's decision, or a fallback abstention carrying the error. */
export type RouteOutcome = RouteResult | RouteFallback;
