import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { createError, isRouterError, type ErrorCode, type RouterError } from "../errors.js";
import { clientClosedRequest } from "./client-abort.js";
import { clip, LISTED_IN_DETAILS, LISTED_IN_MESSAGE } from "./echo-limits.js";

// Hono's own middleware (validator, media-type gate, body limit) throw these; each gets the catalogue's code.
const HTTP_EXCEPTION_CODES: Record<number, ErrorCode> = { 400: "MALFORMED_JSON", 413: "PAYLOAD_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE" };

/** The coded error to answer with, or undefined for a failure nobody foresaw (answered 500 INTERNAL_ERROR). */
export function knownError(error: unknown, c: Context): RouterError | undefined {
  // Checked first: a body cut short also fails to parse, but the fault is the client's leaving, not its JSON.
  if (clientClosedRequest(c)) return createError("CLIENT_CLOSED_REQUEST");
  if (isRouterError(error)) return error.code === "UNKNOWN_SKILLS" ? boundedUnknownSkills(error) : error;
  if (error instanceof HTTPException && error.status < 500) {
    const code = HTTP_EXCEPTION_CODES[error.status] ?? "INVALID_REQUEST";
    return createError(code, code === "INVALID_REQUEST" ? error.message : undefined);
  }
  return undefined;
}

// Another writer holds the index for seconds (a server applying feedback) to minutes (`router index` embedding).
const INDEX_LOCKED_RETRY_AFTER_S = 2;

/** The Retry-After header's seconds for an error that passes by itself (a lock, a store down, a feedback window), or undefined. */
export function retryAfterSeconds(error: RouterError): number | undefined {
  if (error.code === "INDEX_LOCKED") return INDEX_LOCKED_RETRY_AFTER_S;
  const given = error.details?.["retryAfterSeconds"];
  return typeof given === "number" ? given : undefined;
}

/** UNKNOWN_SKILLS names every unknown skill; the answer names a bounded few and says how many there were. */
function boundedUnknownSkills(error: RouterError): RouterError {
  const unknown = (error.details?.unknown as string[] | undefined) ?? [];
  const more = unknown.length > LISTED_IN_MESSAGE ? `, and ${unknown.length - LISTED_IN_MESSAGE} more` : "";
  const message = `Not in the index: ${unknown
    .slice(0, LISTED_IN_MESSAGE)
    .map((name) => clip(name))
    .join(", ")}${more}`;
  return createError("UNKNOWN_SKILLS", message, { unknown: unknown.slice(0, LISTED_IN_DETAILS).map((name) => clip(name)), unknownCount: unknown.length });
}
