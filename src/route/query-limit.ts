/** The longest query the router accepts, in characters: a routing query is a user message, not a document. */
export const MAX_QUERY_CHARS = 8_000;

/** The part of a message the router reads: an over-long message is routed by its beginning (as the hook does). */
export function routableQuery(text: string): string {
  return text.length > MAX_QUERY_CHARS ? text.slice(0, MAX_QUERY_CHARS) : text;
}
