import { MAX_CONTEXT_MESSAGES } from "../contract/limits.js";
import { RouterClientError } from "./client-error.js";
import { sendRequest, type Transport } from "./send-request.js";
import type { FeedbackRequest, FeedbackResult, RouteFallback, RouteOptions, RouteOutcome, RouteRequest, RouteResult, SkillDetail, SkillSummary } from "./types.js";

// Every decision a router answers; anything else means the URL is not a skill-router.
const ANSWERS = new Set<unknown>(["inject", "offer", "none"]);

export interface RouterClientOptions {
  /** Where the router serves; default `ROUTER_URL`, else http://127.0.0.1:8787. */
  url?: string;
  /** Sent as `Authorization: Bearer <key>`; default `ROUTER_API_KEY`. */
  apiKey?: string;
  /** Longest a call may take, retries and waits included (ms); default 2000. */
  timeoutMs?: number;
  /** Extra attempts after a refused connection or a 429/502/503/504 answer, within the time budget; default 2. */
  retries?: number;
  /** A fetch to use instead of the global one (a proxy agent, instrumentation). */
  fetch?: typeof fetch;
  /** Who this client is, sent with feedback as `X-Router-Client` (the router caps each client's share of one skill's feedback); default: the router records `api`. */
  clientName?: string;
}

/** Per-call settings, next to the routing options. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's time budget for this call (ms). */
  timeoutMs?: number;
}

export interface RouterClient {
  readonly url: string;
  /**
   * Which skill to inject for a message. Never rejects: when the router cannot answer, it resolves to a
   * `RouteFallback` (`decision: "none"`, `reason: "router_unavailable" | "request_rejected"`, `error`).
   */
  route(query: string, options?: RouteOptions & CallOptions): Promise<RouteOutcome>;
  /** The same request, but rejects with a `RouterClientError` instead of falling back. */
  routeOrThrow(query: string, options?: RouteOptions & CallOptions): Promise<RouteResult>;
  /** Every indexed skill; rejects with a `RouterClientError`. */
  skills(options?: CallOptions): Promise<SkillSummary[]>;
  /** One skill with exactly what would be injected; `undefined` when there is no such skill; rejects on other failures. */
  skill(name: string, options?: CallOptions): Promise<SkillDetail | undefined>;
  /**
   * Says which skill should have been injected for a message (`skill: null`: none), with the `route_id` of the answer
   * it is about, and resolves to what the router stored. Rejects with a `RouterClientError`: `rejected` is true when
   * the router refused it (`SKILL_NOT_FOUND` with `details.suggestions`, `FEEDBACK_LIMIT`, a wrong API key), false when
   * it could not answer, the two cases of `route()`'s fallback.
   */
  feedback(request: FeedbackRequest, options?: CallOptions): Promise<FeedbackResult>;
}

const DEFAULT_URL = "http://127.0.0.1:8787";
const DEFAULT_TIMEOUT_MS = 2000;
const DEFAULT_RETRIES = 2;

/** A typed client of the router's HTTP API, with a bounded wait and a fallback answer. */
export function createRouterClient(options: RouterClientOptions = {}): RouterClient {
  // The client may run outside Node (edge runtimes, bundlers), where `process` does not exist.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const transport: Transport = {
    baseUrl: (options.url ?? env.ROUTER_URL ?? DEFAULT_URL).replace(/\/+$/, ""),
    apiKey: options.apiKey ?? env.ROUTER_API_KEY,
    timeoutMs: checkCount("timeoutMs", options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1),
    retries: checkCount("retries", options.retries ?? DEFAULT_RETRIES, 0),
    fetch: options.fetch ?? globalThis.fetch,
  };

  const routeOrThrow = async (query: string, routeOptions: RouteOptions & CallOptions = {}): Promise<RouteResult> => {
    const { signal, timeoutMs, context, ...rest } = routeOptions;
    // The router reads the last few messages and refuses more: a whole conversation can be passed as it is.
    const body: RouteRequest = { query, ...rest, ...(context ? { context: context.slice(-MAX_CONTEXT_MESSAGES) } : {}) };
    const result = await sendRequest<RouteResult>(transport, { method: "POST", path: "/route", body, signal, timeoutMs });
    if (!ANSWERS.has(result?.decision)) {
      throw new RouterClientError({ code: "BAD_RESPONSE", message: "The answer to POST /route has no decision: is the URL a skill-router?" });
    }
    return result;
  };

  return {
    url: transport.baseUrl,
    routeOrThrow,
    async route(query, routeOptions) {
      try {
        return await routeOrThrow(query, routeOptions);
      } catch (error) {
        return fallback(error);
      }
    },
    skills: (call = {}) => sendRequest<SkillSummary[]>(transport, { method: "GET", path: "/skills", ...call }),
    async skill(name, call = {}) {
      try {
        return await sendRequest<SkillDetail>(transport, { method: "GET", path: `/skills/${encodeURIComponent(name)}`, ...call });
      } catch (error) {
        if (error instanceof RouterClientError && error.code === "SKILL_NOT_FOUND") return undefined;
        throw error;
      }
    },
    async feedback(request, call = {}) {
      const headers = options.clientName ? { "x-router-client": options.clientName } : undefined;
      const result = await sendRequest<FeedbackResult>(transport, { method: "POST", path: "/feedback", body: request, ...(headers ? { headers } : {}), ...call });
      if (typeof result?.stored?.note !== "string") throw new RouterClientError({ code: "BAD_RESPONSE", message: "The answer to POST /feedback has no stored entry: is the URL a skill-router?" });
      return result;
    },
  };
}

function fallback(error: unknown): RouteFallback {
  const failure = error instanceof RouterClientError ? error : new RouterClientError({ code: "BAD_RESPONSE", message: String(error), cause: error });
  return { decision: "none", selected: [], offer: null, skills: [], reason: failure.rejected ? "request_rejected" : "router_unavailable", error: failure.toJSON() };
}

function checkCount(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) throw new RangeError(`${name} must be an integer of at least ${min} (got ${value})`);
  return value;
}
