import { requestError } from "../contract/request-error.js";
import { routeRequestSchema, type ContextMessage, type RouteOptions } from "../contract/route.js";
import type { QueryEncoder } from "../models/query-encoder.js";
import { normalise } from "../models/vector-math.js";
import { analyseText } from "../text/analyse-text.js";
import { glossHan } from "../text/han-gloss.js";
import { withoutNegatedSpans } from "../text/negated-spans.js";
import { skillCalls } from "../contract/skill-calls.js";
import { mostlyLatin, readsEveryScript } from "./embedder-coverage.js";

/** A query as every stage of the pipeline sees it. */
export interface RouteQuery {
  text: string;
  /** The text with the spans it declines blanked out ("don't use X"): what is matched, words and meaning. */
  wanted: string;
  /** analyseText(wanted): stemmed content terms. */
  terms: string[];
  /** For a Chinese query: the terms of its English gloss, which BM25 reads too (keywords need the user's own words). */
  glossTerms?: string[];
  /** Unit vector of the query (context blended in, when given). */
  vector: Float32Array;
  /** The embedder reads the query's script; when not, dense evidence says nothing and is left out. */
  readable: boolean;
  /** Most of its letters are in another script than Latin: CJK text shares far more BM25 terms, so its own lexical floor applies. */
  otherScript: boolean;
  /** For a Chinese query the embedder cannot read: the unit vector of its English gloss, which finds candidates among skills written in English. */
  gloss?: Float32Array;
  /** The names it calls a skill by (`$name`, a leading `/name`), outside the spans it declines; absent when none. */
  calls?: string[];
}

// Recent conversation shifts the query vector a little; the message itself stays dominant.
const CONTEXT_WEIGHT = 0.3;

/** The library and CLI are held to the HTTP API's contract, with its error codes. */
export function checkRequest(text: unknown, options: RouteOptions): void {
  const { signal: _signal, ...rest } = options;
  const parsed = routeRequestSchema.safeParse({ ...rest, query: text });
  if (!parsed.success) throw requestError(parsed.error);
}

/** Analyses and embeds a message, with the last few messages of context blended into its vector. */
export async function prepareQuery(encoder: QueryEncoder, text: string, context: ContextMessage[] | undefined, signal?: AbortSignal): Promise<RouteQuery> {
  // What the request says it does not want is no evidence for a skill: left out of what is matched, words and meaning.
  const wanted = withoutNegatedSpans(text);
  const vector = Float32Array.from(await encoder.embedQuery(wanted.trim() === "" ? text : wanted, signal));
  const recent = (context ?? []).map((message) => (typeof message === "string" ? message : message.content)).filter((message) => message.trim() !== "");
  if (recent.length > 0) {
    const contextVector = await encoder.embedQuery(recent.join("\n"), signal);
    for (let i = 0; i < vector.length; i++) vector[i]! += CONTEXT_WEIGHT * contextVector[i]!;
    normalise(vector);
  }
  const otherScript = !mostlyLatin(text);
  const readable = !otherScript || readsEveryScript(encoder.id);
  // A Chinese request is also read in English, so that skills written in English can match it (CC-CEDICT glosses).
  const gloss = otherScript ? glossHan(wanted) : undefined;
  // A mention inside what the message says it does not want ("don't use $savepoint") calls nothing.
  const calls = skillCalls(wanted);
  const called = calls.length > 0 ? { calls } : {};
  if (!gloss) return { text, wanted, terms: analyseText(wanted), vector, readable, otherScript, ...called };
  // The gloss's vector stands in for the query's only where the embedder cannot read the query.
  const glossVector = readable ? {} : { gloss: Float32Array.from(await encoder.embedQuery(gloss, signal)) };
  return { text, wanted, terms: analyseText(wanted), glossTerms: analyseText(gloss), vector, readable, otherScript, ...glossVector, ...called };
}
