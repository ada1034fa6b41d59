// One set of limits for every way in (HTTP, library, CLI, MCP, client): the contract's schemas read them.

/** The longest query the router accepts, in characters (code points, as the schemas count them): a routing query is a user message, not a document. */
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
/** Cases one `POST /eval` may route: a few seconds of work at a few milliseconds each; `router eval` has no such limit. */
export const MAX_EVAL_CASES = 500;

/** The part of a message the router reads: an over-long message is routed by its beginning (as the hook does), cut between characters. */
export function routableQuery(text: string): string {
  // UTF-16 length bounds the character count from above: only a long text needs counting.
  if (text.length <= MAX_QUERY_CHARS) return text;
  const characters = Array.from(text);
  return characters.length > MAX_QUERY_CHARS ? characters.slice(0, MAX_QUERY_CHARS).join("") : text;
}
