/** The router's longest accepted query, in characters (the server's MAX_QUERY_CHARS; a test keeps the two equal). */
export const MAX_QUERY_CHARS = 8_000;
