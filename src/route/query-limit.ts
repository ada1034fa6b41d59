/** The longest query the router accepts, in characters: a routing query is a user message, not a document. */
export const MAX_QUERY_CHARS = 8_000;
