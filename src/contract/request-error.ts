import type { z } from "zod";
import { createError, type ErrorCode, type RouterError } from "../errors.js";
import { MAX_QUERY_CHARS } from "./limits.js";

// Enough issues to fix a request in one go, few enough to keep the answer small.
const LISTED_ISSUES = 100;

/**
 * A request that breaks the contract, named by the rule it broke; the query's own rules get their own codes.
 * `clip` bounds what is echoed back (the server's answers must not grow with hostile input).
 */
export function requestError(error: z.ZodError, clip: (text: string) => string = (text) => text): RouterError {
  const issue = error.issues[0]!;
  const field = issue.path.join(".");
  const issues = error.issues.slice(0, LISTED_ISSUES).map((item) => ({ path: clip(item.path.join(".")), message: clip(item.message) }));
  const details = { issues, issueCount: error.issues.length };
  if (field === "query") {
    const code: ErrorCode = issue.code === "invalid_type" ? "QUERY_NOT_STRING" : issue.code === "too_big" ? "QUERY_TOO_LONG" : "QUERY_EMPTY";
    const message = code === "QUERY_TOO_LONG" ? `The query is longer than ${MAX_QUERY_CHARS} characters` : code === "QUERY_NOT_STRING" ? "The query is missing or not a string" : "The query is empty";
    return createError(code, message, details);
  }
  return createError("INVALID_REQUEST", clip(field ? `${field}: ${issue.message}` : issue.message), details);
}
