import { createRoute, OpenAPIHono, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { createError, isRouterError, type ErrorCode, type RouterError } from "../errors.js";
import type { Router } from "../route/router.js";
import { VERSION } from "../version.js";
import {
  errorSchema,
  healthSchema,
  MAX_QUERY_CHARS,
  readinessSchema,
  routeRequestSchema,
  routeResponseSchema,
  skillDetailSchema,
  skillSummarySchema,
} from "./schemas.js";

/** Where the app finds the router: absent while it loads, with the reason when loading failed. */
export interface RouterSlot {
  router: Router | undefined;
  error: RouterError | undefined;
}

const errorResponse = (description: string) => ({ content: { "application/json": { schema: errorSchema } }, description });

const routeEndpoint = createRoute({
  method: "post",
  path: "/route",
  summary: "Which skill to inject for a message, or none, and why",
  request: { body: { content: { "application/json": { schema: routeRequestSchema } }, required: true } },
  responses: {
    200: { content: { "application/json": { schema: routeResponseSchema } }, description: "The decision, the ranked skills and their evidence" },
    400: errorResponse("Invalid request (code says which rule it broke)"),
    415: errorResponse("The body is not application/json"),
    503: errorResponse("The index or models are still loading"),
  },
});

const skillsEndpoint = createRoute({
  method: "get",
  path: "/skills",
  summary: "Every indexed skill",
  responses: { 200: { content: { "application/json": { schema: skillSummarySchema.array() } }, description: "Indexed skills" }, 503: errorResponse("Not ready") },
});

const skillEndpoint = createRoute({
  method: "get",
  path: "/skills/{name}",
  summary: "One skill, with exactly what would be injected",
  request: { params: skillSummarySchema.pick({ name: true }) },
  responses: {
    200: { content: { "application/json": { schema: skillDetailSchema } }, description: "The skill" },
    404: errorResponse("No skill with that name"),
    503: errorResponse("Not ready"),
  },
});

const healthEndpoint = createRoute({
  method: "get",
  path: "/healthz",
  summary: "Liveness: the process answers",
  responses: { 200: { content: { "application/json": { schema: healthSchema } }, description: "Alive" } },
});

const readyEndpoint = createRoute({
  method: "get",
  path: "/readyz",
  summary: "Readiness: index and models loaded",
  responses: {
    200: { content: { "application/json": { schema: readinessSchema } }, description: "Ready" },
    503: { content: { "application/json": { schema: readinessSchema } }, description: "Loading, or loading failed" },
  },
});

export function createApp(slot: RouterSlot): OpenAPIHono {
  const app = new OpenAPIHono({ defaultHook: (result, c) => (result.success ? undefined : errorJson(c, validationError(result.error))) });

  app.use("/route", async (c, next) => {
    if (c.req.method === "POST" && !(c.req.header("content-type") ?? "").toLowerCase().startsWith("application/json")) {
      return errorJson(c, createError("UNSUPPORTED_MEDIA_TYPE", `Send the body as application/json (got ${c.req.header("content-type") ?? "no content type"})`));
    }
    return next();
  });

  app.openapi(routeEndpoint, async (c) => {
    const { query, ...options } = c.req.valid("json");
    if (query.trim() === "") throw createError("QUERY_EMPTY", "The query is empty or only whitespace");
    return c.json(await ready(slot).route(query, options), 200);
  });

  app.openapi(skillsEndpoint, (c) => c.json(ready(slot).skills(), 200));

  app.openapi(skillEndpoint, (c) => {
    const { name } = c.req.valid("param");
    // Served from the index, never from disk: a name cannot reach a file outside the indexed roots.
    const skill = ready(slot).skill(name);
    if (!skill) throw createError("SKILL_NOT_FOUND", `No skill named "${name}"`, { name });
    const { injection, root: _root, contentHash: _hash, body: _body, ...rest } = skill;
    return c.json({ ...rest, body: injection }, 200);
  });

  app.openapi(healthEndpoint, (c) => c.json({ status: "ok" as const, version: VERSION }, 200));

  app.openapi(readyEndpoint, (c) => {
    const status = slot.router?.status();
    const body = {
      ready: status !== undefined,
      index: status ? { version: status.indexVersion, skills: status.skills, embedder: status.embedder, fusion: status.fusion } : null,
      reranker: status?.reranker ?? null,
      error: slot.error ? { code: slot.error.code, message: slot.error.message } : null,
    };
    return c.json(body, status ? 200 : 503);
  });

  app.doc31("/openapi.json", { openapi: "3.1.0", info: { title: "skill-router", version: VERSION, description: "Which installed skill to inject into an agent's context, or none." } });

  app.notFound((c) => errorJson(c, createError("ROUTE_NOT_FOUND", `No endpoint ${c.req.method} ${new URL(c.req.url).pathname}`)));
  app.onError((error, c) => {
    if (isRouterError(error)) return errorJson(c, error);
    if (error instanceof HTTPException && error.status === 400) return errorJson(c, createError("MALFORMED_JSON", error.message));
    console.error(error);
    return errorJson(c, createError("INTERNAL_ERROR"));
  });
  return app;
}

function ready(slot: RouterSlot): Router {
  if (!slot.router) throw slot.error ?? createError("NOT_READY");
  return slot.router;
}

function errorJson(c: Context, error: RouterError): Response {
  return c.json({ error: error.toJSON() }, error.status as 400);
}

/** A schema failure named by the rule it broke; the query's own rules get their own codes. */
function validationError(error: z.ZodError): RouterError {
  const issue = error.issues[0]!;
  const field = issue.path.join(".");
  const details = { issues: error.issues.map((item) => ({ path: item.path.join("."), message: item.message })) };
  if (field === "query") {
    const code: ErrorCode = issue.code === "invalid_type" ? "QUERY_NOT_STRING" : issue.code === "too_big" ? "QUERY_TOO_LONG" : "QUERY_EMPTY";
    const message = code === "QUERY_TOO_LONG" ? `The query is longer than ${MAX_QUERY_CHARS} characters` : code === "QUERY_NOT_STRING" ? "The query is missing or not a string" : "The query is empty";
    return createError(code, message, details);
  }
  return createError("INVALID_REQUEST", field ? `${field}: ${issue.message}` : issue.message, details);
}
