import type { MiddlewareHandler } from "hono";
import { createError } from "../errors.js";
import { clip } from "./echo-limits.js";

// application/json with well-formed `name=value` parameters: a subset of what both @hono/zod-openapi's media-type
// gate (else an unmapped 415 HTTPException) and Hono's JSON validator (else an empty body) accept.
const JSON_MEDIA_TYPE = /^application\/json(;\s*[a-z0-9-]+=[^;]+)*$/i;
const CHARSET = /;\s*charset=\s*"?([^";\s]+)"?/i;
const UTF8 = new Set(["utf-8", "utf8", "us-ascii"]);
const IDENTITY = new Set(["", "identity"]);
// Node takes chunks off a body whose last transfer coding is chunked, and hands on whatever coding is left under it.
const PLAIN_TRANSFER = new Set(["chunked", "identity"]);

export interface BodyHeaders {
  contentType: string | undefined;
  contentEncoding?: string | undefined;
  transferEncoding?: string | undefined;
}

/** Why a body with these headers cannot be read as JSON, or undefined when it can. */
export function unreadableJsonBody({ contentType, contentEncoding, transferEncoding }: BodyHeaders): string | undefined {
  if (contentType === undefined) return "no content type";
  if (!JSON_MEDIA_TYPE.test(contentType)) return `content type ${clip(contentType)}`;
  const charset = CHARSET.exec(contentType)?.[1]?.toLowerCase();
  if (charset !== undefined && !UTF8.has(charset)) return `charset ${clip(charset)}; the body is read as UTF-8`;
  if (!IDENTITY.has((contentEncoding ?? "").trim().toLowerCase())) return `content encoding ${clip(contentEncoding!)}; send the body uncompressed`;
  const codings = (transferEncoding ?? "").split(",").map((coding) => coding.trim().toLowerCase());
  if (codings.some((coding) => coding !== "" && !PLAIN_TRANSFER.has(coding))) return `transfer encoding ${clip(transferEncoding!)}; send the body uncompressed`;
  return undefined;
}

// Fatal: a body that is not UTF-8 is refused, not decoded with replacement characters.
const UTF8_DECODER = new TextDecoder("utf-8", { fatal: true });

/**
 * Answers 415 UNSUPPORTED_MEDIA_TYPE before the body is read, for any body the JSON validator would not read as JSON,
 * and 400 BODY_NOT_UTF8 for a body that is not UTF-8: the validator would decode it with replacement characters and
 * route a query nobody sent.
 */
export function requireJsonBody(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== "POST") return next();
    const headers = { contentType: c.req.header("content-type"), contentEncoding: c.req.header("content-encoding"), transferEncoding: c.req.header("transfer-encoding") };
    const problem = unreadableJsonBody(headers);
    if (problem) throw createError("UNSUPPORTED_MEDIA_TYPE", `Send the body as application/json (got ${problem})`);
    const bytes = await c.req.arrayBuffer();
    let text: string;
    try {
      text = UTF8_DECODER.decode(bytes);
    } catch {
      throw createError("BODY_NOT_UTF8", "The request body is not valid UTF-8: JSON must be sent as UTF-8");
    }
    // The validator reads the body as text from Hono's cache: decoded here, or Hono would build a Response from the
    // cached bytes to decode them, which doubled the CPU a cached answer costs the server.
    // (Hono keeps each body read as its promise, whatever its BodyCache type says; the route tests read through it.)
    (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
    return next();
  };
}
