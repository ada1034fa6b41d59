import { randomUUID } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { Logger } from "./logger.js";
import type { ServerMetrics } from "./metrics.js";

/** `deadline` fires when the request's time limit runs out (set by limitTime). */
export type RequestVariables = { requestId: string; deadline?: AbortSignal };

// Probes and scrapes arrive every few seconds; they are logged at debug so the log shows traffic, not polling.
const QUIET_ROUTES = new Set(["/healthz", "/readyz", "/metrics"]);
// A caller's request id is echoed only when it is short and plain: it goes into logs and headers.
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Counts and times every request per endpoint, logs one access line, and tags the request with an id. */
export function observeRequests(metrics: ServerMetrics, logger: Logger, inFlight: { count: number }): MiddlewareHandler<{ Variables: RequestVariables }> {
  return async (c, next) => {
    const started = performance.now();
    const offered = c.req.header("x-request-id");
    const requestId = offered && REQUEST_ID.test(offered) ? offered : randomUUID();
    c.set("requestId", requestId);
    inFlight.count++;
    metrics.inFlight.inc();
    try {
      await next();
    } finally {
      inFlight.count--;
      metrics.inFlight.dec();
    }
    // On the answer's own headers: c.header() on a finished answer rebuilds it around a copy of its body stream.
    c.res.headers.set("X-Request-Id", requestId);
    const seconds = (performance.now() - started) / 1000;
    const labels = { method: c.req.method, route: routeLabel(c), status: String(c.res.status) };
    metrics.requests.inc(labels);
    metrics.requestSeconds.observe(labels, seconds);
    const line = { event: "request", request_id: requestId, method: labels.method, path: c.req.path, route: labels.route, status: c.res.status, duration_ms: Math.round(seconds * 100_000) / 100 };
    if (isProbeAnswer(labels.route, c.res.status)) logger.debug(line, "request");
    else if (c.res.status >= 500) logger.error(line, "request failed");
    else logger.info(line, "request");
  };
}

/** A probe's usual answer: a success, or readiness saying "not yet" (503 while loading or draining; the load logs its own failure). */
function isProbeAnswer(route: string, status: number): boolean {
  return QUIET_ROUTES.has(route) && (status < 400 || (route === "/readyz" && status === 503));
}

/** The endpoint's pattern (`/skills/:name`), never the raw path: labels stay few whatever clients send. */
function routeLabel(c: Context): string {
  const handler = matchedRoutes(c).findLast((route) => route.method !== "ALL");
  return handler?.path ?? "unmatched";
}
