import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { createError } from "../errors.js";

/**
 * Requires `Authorization: Bearer <key>` unless `isOpen` says the request may pass (liveness, say).
 * Both sides are hashed first, so the comparison is constant-time whatever the lengths.
 */
export function requireApiKey(apiKey: string, isOpen: (path: string) => boolean): MiddlewareHandler {
  const expected = digest(apiKey);
  return async (c, next) => {
    if (isOpen(c.req.path)) return next();
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(c.req.header("authorization") ?? "");
    const valid = match !== null && timingSafeEqual(digest(match[1]!), expected);
    if (valid) return next();
    c.header("WWW-Authenticate", 'Bearer realm="skill-router"');
    throw createError(match ? "API_KEY_INVALID" : "API_KEY_MISSING");
  };
}

function digest(key: string): Buffer {
  return createHash("sha256").update(key).digest();
}
