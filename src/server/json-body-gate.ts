import type { MiddlewareHandler } from "hono";
import { createError } from "../errors.js";
import { clip } from "./echo-limits.js";

// application/json with well-formed `name=value` parameters: a subset of what both @hono/zod-openapi's media-type
// gate (else an unmapped 415 HTTPException) and Hono's JSON validator (else an empty body) accept.
const JSON_MEDIA_TYPE = /^application\/json(;\s*[a-z0-9-]+=[^;]+)*$/i;
const CHARSET = /;\s*charset=\s*"?([^";\s]+)"?/i;
const UTF8 = new Set(["utf-8", "utf8", "us-ascii"]);
const IDENTITY = new Set(["", "identity"]);

/** Why a body with these headers cannot be read as JSON, or undefined when it can. */
export function unreadableJsonBody(contentType: string | undefined, contentEncoding: string | undefined): string | undefined {
  if (contentType === undefined) return "no content type";
  if (!JSON_MEDIA_TYPE.test(contentType)) return `content type ${clip(contentType)}`;
  const charset = CHARSET.exec(contentType)?.[1]?.toLowerCase();
  if (charset !== undefined && !UTF8.has(charset)) return `charset ${clip(charset)}; the body is read as UTF-8`;
  if (!IDENTITY.has((contentEncoding ?? "").trim().toLowerCase())) return `content encoding ${clip(contentEncoding!)}; send the body uncompressed`;
  return undefined;
}

/** Answers 415 UNSUPPORTED_MEDIA_TYPE before the body is read, for any body the JSON validator would not read as JSON. */
export function requireJsonBody(): MiddlewareHandler {
  return async (c, next) => {
    const problem = c.req.method === "POST" ? unreadableJsonBody(c.req.header("content-type"), c.req.header("content-encoding")) : undefined;
    if (problem) throw createError("UNSUPPORTED_MEDIA_TYPE", `Send the body as application/json (got ${problem})`);
    return next();
  };
}
