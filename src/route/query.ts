import { createError } from "../errors.js";
import type { QueryEncoder } from "../models/query-encoder.js";
import { normalise } from "../models/vector-math.js";
import { analyseText } from "../text/analyse-text.js";
import { embedderReads } from "./embedder-coverage.js";
import { MAX_QUERY_CHARS } from "./query-limit.js";
import type { RouteQuery } from "./retriever.js";
import type { ContextMessage } from "./types.js";

// Recent conversation shifts the query vector a little; the message itself stays dominant.
const CONTEXT_WEIGHT = 0.3;
const CONTEXT_MESSAGES = 3;

/** The library and CLI get the same query rules (and error codes) as the HTTP API. */
export function checkQuery(text: unknown): asserts text is string {
  if (typeof text !== "string") throw createError("QUERY_NOT_STRING", "The query is missing or not a string");
  if (text.trim() === "") throw createError("QUERY_EMPTY", "The query is empty or only whitespace");
  if (text.length > MAX_QUERY_CHARS) throw createError("QUERY_TOO_LONG", `The query is longer than ${MAX_QUERY_CHARS} characters`);
}

/** Analyses and embeds a message, with the last few messages of context blended into its vector. */
export async function prepareQuery(encoder: QueryEncoder, text: string, context: ContextMessage[] | undefined): Promise<RouteQuery> {
  const vector = Float32Array.from(await encoder.embedQuery(text));
  const recent = (context ?? []).slice(-CONTEXT_MESSAGES).map((message) => (typeof message === "string" ? message : message.content)).filter((message) => message.trim() !== "");
  if (recent.length > 0) {
    const contextVector = await encoder.embedQuery(recent.join("\n"));
    for (let i = 0; i < vector.length; i++) vector[i]! += CONTEXT_WEIGHT * contextVector[i]!;
    normalise(vector);
  }
  return { text, terms: analyseText(text), vector, readable: embedderReads(text) };
}
