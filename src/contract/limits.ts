// One set of limits for every way in (HTTP, library, CLI, MCP, client): the contract's schemas read them.

/** The longest query the router accepts, in characters: a routing query is a user message, not a document. */
export const MAX_QUERY_CHARS = 8_000;
/** Ranked skills an answer may list. */
export const MAX_K = 20;
export const DEFAULT_K = 3;
/** Recent messages of context the router reads: the last few say what the conversation is about. */
export const MAX_CONTEXT_MESSAGES = 3;
/** Names in a `skills` or `exclude` list. */
export const MAX_SKILL_NAMES = 100_000;
/** Characters of a skill name in a request: names are short slugs, tool names with a server prefix at most. */
export const MAX_SKILL_NAME_CHARS = 200;

/** The part of a message the router reads: an over-long message is routed by its beginning (as the hook does). */
export function routableQuery(text: string): string {
  return text.length > MAX_QUERY_CHARS ? text.slice(0, MAX_QUERY_CHARS) : text;
}
