import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { createError, isRouterError, type ErrorCode, type RouterError } from "../errors.js";
import { MAX_QUERY_CHARS } from "../contract/limits.js";
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

/** A schema failure named by the rule it broke; the query's own rules get their own codes. */
export function validationError(error: z.ZodError): RouterError {
  const issue = error.issues[0]!;
  const field = issue.path.join(".");
  const issues = error.issues.slice(0, LISTED_IN_DETAILS).map((item) => ({ path: clip(item.path.join(".")), message: clip(item.message) }));
  const details = { issues, issueCount: error.issues.length };
  if (field === "query") {
    const code: ErrorCode = issue.code === "invalid_type" ? "QUERY_NOT_STRING" : issue.code === "too_big" ? "QUERY_TOO_LONG" : "QUERY_EMPTY";
    const message = code === "QUERY_TOO_LONG" ? `The query is longer than ${MAX_QUERY_CHARS} characters` : code === "QUERY_NOT_STRING" ? "The query is missing or not a string" : "The query is empty";
    return createError(code, message, details);
  }
  return createError("INVALID_REQUEST", clip(field ? `${field}: ${issue.message}` : issue.message), details);
}
