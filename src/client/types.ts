// The HTTP API's request and response shapes, derived from the router's own types so the two cannot drift.
import type { RouteOptions, RouteResult } from "../route/types.js";
import type { Skill } from "../skills/types.js";

export type { ContextMessage, Decision, NoneReason, RankedSkill, RouteOptions, RouteResult, RouteTiming, Signals } from "../route/types.js";
export type { SkillSummary } from "../store/skill-rows.js";
export type { SkillFormat, SkillKind, SkillMetadata } from "../skills/types.js";

/** The body of `POST /route`. */
export interface RouteRequest extends RouteOptions {
  query: string;
}

/** `GET /skills/{name}`: the skill, with `body` exactly what would be injected. */
export type SkillDetail = Omit<Skill, "injection" | "root" | "relativePath" | "contentHash" | "body"> & { body: string };

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
  skills: [];
  reason: "router_unavailable" | "request_rejected";
  error: RouterFailure;
}

/** What `route()` resolves to: the router's decision, or a fallback abstention carrying the error. */
export type RouteOutcome = RouteResult | RouteFallback;
