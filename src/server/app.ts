import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { cors } from "hono/cors";
import { withDefaults, type Settings } from "../config/settings.js";
import { requestError } from "../contract/request-error.js";
import { createError, type RouterError } from "../errors.js";
import type { Router } from "../route/router.js";
import { VERSION } from "../version.js";
import { requireApiKey } from "./api-key.js";
import { decisionLine } from "./decision-log.js";
import { docsPage, DOCS_CONTENT_SECURITY_POLICY } from "./docs-page.js";
import { addExplorer, EXPLORER_ASSET_PATHS } from "./explorer/explorer-routes.js";
import { clip } from "./echo-limits.js";
import { knownError, retryAfterSeconds } from "./error-mapping.js";
import { refuseForeignHosts } from "./host-check.js";
import { feedbackSender } from "./feedback-sender.js";
import { requireJsonBody } from "./json-body-gate.js";
import { silentLogger, type Logger } from "./logger.js";
import { createMetrics, recordDecision, type ServerMetrics } from "./metrics.js";
import { observeRequests, type RequestVariables } from "./observe-requests.js";
import { limitBody, limitTime } from "./request-limits.js";
import { errorSchema, feedbackRequestSchema, feedbackResultSchema, healthSchema, readinessSchema, routeRequestSchema, routeResponseSchema, skillDetailSchema, skillSummarySchema } from "./schemas.js";
import type { FeedbackRequest, FeedbackResult } from "../contract/feedback.js";

/** Where the app finds the router: absent while it loads, with the reason when loading failed. */
export interface RouterSlot {
  router: Router | undefined;
  error: RouterError | undefined;
  /** Set on SIGTERM: readiness turns false so traffic moves away while in-flight requests finish. */
  draining: boolean;
}

/**
 * Stores what a client said of an answer (server/serve.ts records it in the configured feedback store). `client` is the
 * client's own name; `sender` is who the server knows it as (feedback/feedback-sender.ts), which the store's caps count.
 */
export type FeedbackSink = (router: Router, request: FeedbackRequest, client: string, sender: string) => Promise<FeedbackResult>;

export type AppOptions = Partial<Pick<Settings, "apiKey" | "metricsPublic" | "corsOrigins" | "allowedHosts" | "maxBodyBytes" | "requestTimeoutMs" | "decisionLog" | "explorer">> & {
  logger?: Logger;
  /** Where POST /feedback goes; without it the endpoint answers 503 NOT_READY. */
  feedback?: FeedbackSink;
  metrics?: ServerMetrics;
  /** Requests being answered now (graceful shutdown waits for it to reach 0). */
  inFlight?: { count: number };
  /** The index file's own fault behind an error a request met (damage, a disk error) as its code; serve.ts takes a damaged index out of service. */
  indexFault?: (error: unknown) => RouterError | undefined;
};

const errorResponse = (description: string) => ({ content: { "application/json": { schema: errorSchema } }, description });
const unauthorized = errorResponse("Missing (API_KEY_MISSING) or wrong (API_KEY_INVALID) API key, when the server has one");
const unavailable = errorResponse("Not ready (NOT_READY, INDEX_*, MODEL_*), or the request took too long (REQUEST_TIMEOUT)");
// Liveness answers without credentials: a probe cannot always hold a secret, and a failing one restarts a healthy pod.
const OPEN_PATHS = new Set(["/healthz"]);

const routeEndpoint = createRoute({
  method: "post",
  path: "/route",
  summary: "Which skill to inject for a message, or none, and why",
  request: { body: { content: { "application/json": { schema: routeRequestSchema } }, required: true } },
  responses: {
    200: { content: { "application/json": { schema: routeResponseSchema } }, description: "The decision, the ranked skills and their evidence" },
    400: errorResponse("Invalid request (code says which rule it broke)"),
    401: unauthorized,
    408: errorResponse("The body did not arrive in full in time (CLIENT_TIMEOUT)"),
    413: errorResponse("The body is larger than the server accepts (PAYLOAD_TOO_LARGE)"),
    415: errorResponse("The body is not application/json"),
    503: unavailable,
  },
});

const feedbackEndpoint = createRoute({
  method: "post",
  path: "/feedback",
  summary: "Say which skill should have been injected for a message (or none): the router learns from it",
  request: {
    body: { content: { "application/json": { schema: feedbackRequestSchema } }, required: true },
    headers: z.object({ "x-router-client": z.string().max(64).optional().meta({ description: "Who reports it (an agent, a hook): each client's share of one skill's feedback is capped." }) }),
  },
  responses: {
    201: { content: { "application/json": { schema: feedbackResultSchema } }, description: "Stored in the index (committed), with what it teaches" },
    400: errorResponse("Invalid request (code says which rule it broke)"),
    401: unauthorized,
    404: errorResponse("No skill with that name (SKILL_NOT_FOUND, with the nearest names in details.suggestions)"),
    409: errorResponse(
      "The store holds as much feedback as it keeps for this skill or client, or took its hour's share for this skill or sender (FEEDBACK_LIMIT, with Retry-After); or the index is read-only and no feedback store is configured (FEEDBACK_STORE_READ_ONLY)",
    ),
    413: errorResponse("The body is larger than the server accepts (PAYLOAD_TOO_LARGE)"),
    415: errorResponse("The body is not application/json"),
    503: errorResponse(
      "Not ready, the index is being written by another process for longer than the request may wait (INDEX_LOCKED), or the feedback store did not answer (FEEDBACK_STORE_UNAVAILABLE); both with Retry-After",
    ),
  },
});

const skillsEndpoint = createRoute({
  method: "get",
  path: "/skills",
  summary: "Every indexed skill",
  responses: { 200: { content: { "application/json": { schema: skillSummarySchema.array() } }, description: "Indexed skills" }, 401: unauthorized, 503: unavailable },
});

const skillEndpoint = createRoute({
  method: "get",
  path: "/skills/{name}",
  summary: "One skill, with exactly what would be injected",
  request: { params: skillSummarySchema.pick({ name: true }) },
  responses: {
    200: { content: { "application/json": { schema: skillDetailSchema } }, description: "The skill" },
    401: unauthorized,
    404: errorResponse("No skill with that name"),
    503: unavailable,
  },
});

const healthEndpoint = createRoute({
  method: "get",
  path: "/healthz",
  summary: "Liveness: the process answers (never needs the API key)",
  security: [],
  responses: { 200: { content: { "application/json": { schema: healthSchema } }, description: "Alive" } },
});

const readyEndpoint = createRoute({
  method: "get",
  path: "/readyz",
  summary: "Readiness: index and models loaded",
  responses: {
    200: { content: { "application/json": { schema: readinessSchema } }, description: "Ready" },
    401: unauthorized,
    503: { content: { "application/json": { schema: readinessSchema } }, description: "Loading, loading failed, or draining before shutdown" },
  },
});

const OPENAPI_CONFIG = {
  openapi: "3.1.0",
  info: { title: "skill-router", version: VERSION, description: "Which installed skill to inject into an agent's context, or none." },
  security: [{ bearerAuth: [] }],
};

export function createApp(slot: RouterSlot, options: AppOptions = {}): OpenAPIHono<{ Variables: RequestVariables }> {
  const { logger = silentLogger(), metrics = createMetrics(), inFlight = { count: 0 }, ...given } = options;
  const settings = withDefaults(given);
  const app = new OpenAPIHono<{ Variables: RequestVariables }>({ defaultHook: (result, c) => (result.success ? undefined : errorJson(c, requestError(result.error, clip))) });

  app.use(observeRequests(metrics, logger, inFlight));
  // No browser may sniff a JSON answer (an error echoing user input, say) into HTML.
  app.use(async (c, next) => {
    await next();
    // On the answer's own headers: c.header() on a finished answer rebuilds it around a copy of its body stream.
    c.res.headers.set("X-Content-Type-Options", "nosniff");
  });
  app.use(refuseForeignHosts({ allowedHosts: settings.allowedHosts, corsOrigins: settings.corsOrigins, checkHost: !settings.apiKey, logger }));
  if (settings.corsOrigins.length > 0) {
    const origin = settings.corsOrigins.includes("*") ? "*" : settings.corsOrigins;
    app.use(cors({ origin, allowMethods: ["GET", "POST", "OPTIONS"], allowHeaders: ["Authorization", "Content-Type", "X-Request-Id"], exposeHeaders: ["X-Request-Id"], maxAge: 600 }));
  }
  if (settings.apiKey) {
    const open = new Set([...OPEN_PATHS, ...(settings.metricsPublic ? ["/metrics"] : []), ...(settings.explorer ? EXPLORER_ASSET_PATHS : [])]);
    app.use(requireApiKey(settings.apiKey, (path) => open.has(path)));
  }
  app.use(limitTime(settings.requestTimeoutMs));
  for (const path of ["/route", "/feedback"]) {
    app.use(path, limitBody(settings.maxBodyBytes));
    app.use(path, requireJsonBody());
  }

  app.openapi(routeEndpoint, async (c) => {
    const started = performance.now();
    const { query, ...routeOptions } = c.req.valid("json");
    const deadline = c.get("deadline");
    const result = await ready(slot).route(query, { ...routeOptions, ...(deadline ? { signal: deadline } : {}) });
    recordDecision(metrics, result);
    if (settings.decisionLog !== "off") logger.info(decisionLine(settings.decisionLog, query, result, c.get("requestId"), performance.now() - started), "route");
    return c.json(result, 200);
  });

  app.openapi(feedbackEndpoint, async (c) => {
    const router = ready(slot);
    if (!options.feedback) throw createError("NOT_READY", "This server takes no feedback: it was started without an index file to keep it in");
    const client = c.req.valid("header")["x-router-client"]?.trim() || "api";
    return c.json(await options.feedback(router, c.req.valid("json"), client, feedbackSender(c, settings.apiKey)), 201);
  });

  if (settings.explorer) addExplorer(app, () => ready(slot), { maxBodyBytes: settings.maxBodyBytes, logger });

  app.openapi(skillsEndpoint, (c) => c.json(ready(slot).skills(), 200));

  app.openapi(skillEndpoint, (c) => {
    const { name } = c.req.valid("param");
    // Served from the index, never from disk: a name cannot reach a file outside the indexed roots.
    const skill = ready(slot).skill(name);
    if (!skill) throw createError("SKILL_NOT_FOUND", `No skill named "${clip(name)}"`, { name: clip(name) });
    return c.json(skill, 200);
  });

  app.openapi(healthEndpoint, (c) => c.json({ status: "ok" as const, version: VERSION }, 200));

  app.openapi(readyEndpoint, (c) => {
    const status = slot.router?.status();
    const body = {
      ready: status !== undefined && !slot.draining,
      draining: slot.draining,
      index: status ? { version: status.indexVersion, skills: status.skills, embedder: status.embedder, fusion: status.fusion } : null,
      reranker: status?.reranker ?? null,
      error: slot.error ? { code: slot.error.code, message: slot.error.message } : null,
    };
    return c.json(body, body.ready ? 200 : 503);
  });

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description: "Required on every endpoint but /healthz when the server has an API key (ROUTER_API_KEY).",
  });
  app.doc31("/openapi.json", OPENAPI_CONFIG);
  let docs: string | undefined;
  app.get("/docs", (c) => {
    docs ??= docsPage(app.getOpenAPI31Document(OPENAPI_CONFIG));
    c.header("Content-Security-Policy", DOCS_CONTENT_SECURITY_POLICY);
    return c.html(docs);
  });
  app.get("/metrics", async (c) => c.body(await metrics.registry.metrics(), 200, { "Content-Type": metrics.registry.contentType }));

  app.notFound((c) => errorJson(c, createError("ROUTE_NOT_FOUND", `No endpoint ${clip(c.req.method)} ${clip(new URL(c.req.url).pathname)}`)));
  app.onError((error, c) => {
    const known = options.indexFault?.(error) ?? knownError(error, c);
    if (known) return errorJson(c, known);
    logger.error({ err: error, request_id: c.get("requestId") }, "unexpected error");
    return errorJson(c, createError("INTERNAL_ERROR"));
  });
  return app;
}

function ready(slot: RouterSlot): Router {
  if (!slot.router) throw slot.error ?? createError("NOT_READY");
  return slot.router;
}

function errorJson(c: Context, error: RouterError): Response {
  // A client too slow to send its request gets no more time on this connection.
  if (error.code === "CLIENT_TIMEOUT") c.header("Connection", "close");
  const retryAfter = retryAfterSeconds(error);
  if (retryAfter !== undefined) c.header("Retry-After", String(retryAfter));
  return c.json({ error: error.toJSON() }, error.status as 400);
}
