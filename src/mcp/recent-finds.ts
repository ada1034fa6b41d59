import type { AnsweredQuery } from "../contract/route.js";

// find_skill answers a session remembers: more than an agent has questions in one conversation.
const REMEMBERED = 100;

/** The find_skill answers of one MCP session: each query's route_id, and the last answer no read_skill has followed yet. */
export interface RecentFinds {
  /** An answer the router chose; one to a message that calls a skill by name is not kept, as the router chose nothing. */
  found(answer: AnsweredQuery, invoked: string | null): void;
  /** The route_id of this session's latest answer to this query. */
  routeIdOf(query: string): string | undefined;
  /** The last answer, once: the message a skill read next is used for. */
  takeUnread(): AnsweredQuery | undefined;
}

export function recentFinds(): RecentFinds {
  const routeIds = new Map<string, string>();
  let unread: AnsweredQuery | undefined;
  return {
    found(answer, invoked) {
      unread = invoked === null ? answer : undefined;
      if (invoked !== null) return;
      routeIds.delete(answer.query);
      routeIds.set(answer.query, answer.route_id);
      if (routeIds.size > REMEMBERED) routeIds.delete(routeIds.keys().next().value!);
    },
    routeIdOf: (query) => routeIds.get(query),
    takeUnread() {
      const answer = unread;
      unread = undefined;
      return answer;
    },
  };
}
