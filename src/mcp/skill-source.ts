import type { RouterClient } from "../client/router-client.js";
import type { FeedbackRequest, FeedbackResult } from "../contract/feedback.js";
import type { RouteOptions, RouteResult } from "../contract/route.js";
import type { SkillDetail } from "../contract/skills.js";
import type { FeedbackStore } from "../feedback/feedback-store.js";
import { feedbackResult, recordFeedback, recordFeedbackIn } from "../feedback/record-feedback.js";
import { createRouter, type RouterOptions } from "../route/router.js";
import { loadTokenCounter } from "../text/token-count.js";

/** Who reports feedback from `router mcp`, as the index records it (X-Router-Client with --url). */
export const MCP_CLIENT_NAME = "mcp";
// How long a report waits for an index another process is writing (an index run): a tool call should not hang.
const FEEDBACK_WAIT_MS = 5_000;

/** Where the MCP tools read skills from and send feedback to: the index in this process, or a running router over HTTP. */
export interface SkillSource {
  /** Says where, for the startup line on stderr. */
  readonly origin: string;
  route(query: string, options: RouteOptions): Promise<RouteResult>;
  skill(name: string): Promise<SkillDetail | undefined>;
  names(): Promise<string[]>;
  /** Stores which skill should have answered a message (null: none), as `POST /feedback` does. */
  feedback(request: FeedbackRequest): Promise<FeedbackResult>;
  close(): Promise<void>;
}

export interface LocalSourceOptions extends Pick<RouterOptions, "models" | "skillsRoot"> {
  /** Called after each new piece of feedback is stored: folds it into the index (`router mcp` starts a `router feedback apply` child). */
  applyFeedback?: () => void;
  /** Where feedback goes when it is not the index (ROUTER_FEEDBACK_URL): nothing is applied here, `router index` folds it in. */
  feedbackStore?: FeedbackStore;
}

/** Routes in this process; before each call, a stat of the index picks up a new version written by `router index` or `router feedback apply`. */
export async function localSkillSource(db: string, options: LocalSourceOptions = {}): Promise<SkillSource> {
  const { applyFeedback, feedbackStore, ...routerOptions } = options;
  const router = await createRouter({ db, ...routerOptions });
  // Read at start, not on the agent's first find_skill that gets an offer (about half a second).
  loadTokenCounter();
  return {
    origin: `index ${db}`,
    async route(query, options) {
      await router.refresh();
      return router.route(query, options);
    },
    async skill(name) {
      await router.refresh();
      return router.skill(name);
    },
    async names() {
      return router.skills().map((skill) => skill.name);
    },
    async feedback(request) {
      await router.refresh();
      // The agent on the other end of stdio is bounded by the store's windows as a network sender is.
      if (feedbackStore)
        return feedbackResult(await recordFeedbackIn(feedbackStore, router, request, MCP_CLIENT_NAME, `local:${MCP_CLIENT_NAME}`), "on the next `router index` that folds the feedback store in");
      const recorded = await recordFeedback(router, db, request, MCP_CLIENT_NAME, FEEDBACK_WAIT_MS);
      if (!recorded.duplicate) applyFeedback?.();
      return feedbackResult(recorded, applyFeedback ? "within seconds, once this MCP server has folded it into the index" : "on the next `router index` or `router feedback apply`");
    },
    async close() {
      await feedbackStore?.close();
      await router.close();
    },
  };
}

/** Asks a running router (`router serve`), so several agents share one loaded index and model; it applies feedback itself. */
export function remoteSkillSource(client: RouterClient): SkillSource {
  return {
    origin: `router at ${client.url}`,
    route: (query, options) => client.routeOrThrow(query, options),
    skill: (name) => client.skill(name),
    names: async () => (await client.skills()).map((skill) => skill.name),
    feedback: (request) => client.feedback(request),
    close: async () => {},
  };
}
