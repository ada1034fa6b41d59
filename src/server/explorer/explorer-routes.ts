import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { Router } from "../../route/router.js";
import { errorSchema } from "../schemas.js";
import type { Logger } from "../logger.js";
import type { RequestVariables } from "../observe-requests.js";
import { limitBody } from "../request-limits.js";
import { requireJsonBody } from "../json-body-gate.js";
import { runEvalSet } from "./eval-run.js";
import { evalQuerySchema, evalRunSchema, evalSetBodySchema } from "./eval-schemas.js";
import { EXPLORER_HTML } from "./page-html.js";
import { explorerScript } from "./page-script.js";
import { EXPLORER_CSS } from "./page-styles.js";

/** Only the page's own script and styles run, data goes only to this origin, and no other site may frame the page (it takes a key). */
export const EXPLORER_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The page and its assets need no API key: a browser cannot send one when it opens a URL, and they hold no data.
 * Everything they show comes from the API, which the page calls with the key the user typed.
 */
export const EXPLORER_ASSET_PATHS = ["/explorer", "/explorer/explorer.js", "/explorer/explorer.css"];

const errorResponse = (description: string) => ({ content: { "application/json": { schema: errorSchema } }, description });

const evalEndpoint = createRoute({
  method: "post",
  path: "/eval",
  summary: "Route an eval set's cases with the live index and measure them (the explorer's eval view; off with ROUTER_EXPLORER=false)",
  request: { query: evalQuerySchema, body: { content: { "application/json": { schema: evalSetBodySchema } }, required: true } },
  responses: {
    200: { content: { "application/json": { schema: evalRunSchema } }, description: "Metrics, the pairs most often mixed up, a reliability diagram's bins and every case's answer" },
    400: errorResponse("Not an eval set (INVALID_REQUEST), more cases than one request routes (TOO_MANY_CASES), or expected skills the index lacks (UNKNOWN_SKILLS)"),
    401: errorResponse("Missing or wrong API key, when the server has one"),
    413: errorResponse("The body is larger than the server accepts (PAYLOAD_TOO_LARGE)"),
    415: errorResponse("The body is not application/json"),
    503: errorResponse("Not ready, or routing the cases took longer than the request timeout (REQUEST_TIMEOUT)"),
  },
});

/** Serves the route explorer at /explorer and the eval endpoint it uses. */
export function addExplorer(app: OpenAPIHono<{ Variables: RequestVariables }>, router: () => Router, options: { maxBodyBytes: number; logger: Logger }): void {
  const asset = (path: string, type: string, content: string) =>
    app.get(path, (c) => c.body(content, 200, { "Content-Type": type, "Content-Security-Policy": EXPLORER_CONTENT_SECURITY_POLICY, "Referrer-Policy": "no-referrer", "Cache-Control": "no-cache" }));
  asset("/explorer", "text/html; charset=utf-8", EXPLORER_HTML);
  asset("/explorer/explorer.js", "text/javascript; charset=utf-8", explorerScript());
  asset("/explorer/explorer.css", "text/css; charset=utf-8", EXPLORER_CSS);

  app.use("/eval", limitBody(options.maxBodyBytes));
  app.use("/eval", requireJsonBody());
  app.openapi(evalEndpoint, async (c) => {
    const split = c.req.valid("query").split ?? "test";
    const run = await runEvalSet(router(), c.req.valid("json"), split, c.get("deadline"));
    const { metrics } = run;
    options.logger.info(
      {
        event: "eval",
        request_id: c.get("requestId"),
        split,
        cases: metrics.cases,
        top1: metrics.top1,
        routed: metrics.routed,
        abstained: metrics.abstain_recall,
        duration_ms: Math.round(run.duration_ms),
      },
      "eval set routed",
    );
    return c.json(run, 200);
  });
}
