import { randomUUID } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { RouteResult } from "../contract/route.js";

// Answers remembered by their route_id: enough for feedback that arrives minutes later from a busy agent.
const REMEMBERED = 10_000;

/** What was injected for a request, by the id its answer carries. */
export interface RecentAnswers {
  /** Gives the answer its id and remembers what it injected. */
  remember(query: string, result: Omit<RouteResult, "route_id">): RouteResult;
  answer(routeId: string): { query: string; selected: string[] } | undefined;
}

export function recentAnswers(): RecentAnswers {
  const answers = new LRUCache<string, { query: string; selected: string[] }>({ max: REMEMBERED });
  return {
    remember(query, result) {
      const routeId = randomUUID();
      answers.set(routeId, { query, selected: result.selected });
      return { ...result, route_id: routeId };
    },
    answer: (routeId) => answers.get(routeId),
  };
}
