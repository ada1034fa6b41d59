import type { RouterClient } from "../client/router-client.js";
import type { RouteOptions, RouteResult } from "../contract/route.js";
import type { SkillDetail } from "../contract/skills.js";
import { createRouter, type RouterOptions } from "../route/router.js";

/** Where the MCP tools read skills from: the index in this process, or a running router over HTTP. */
export interface SkillSource {
  /** Says where, for the startup line on stderr. */
  readonly origin: string;
  route(query: string, options: RouteOptions): Promise<RouteResult>;
  skill(name: string): Promise<SkillDetail | undefined>;
  names(): Promise<string[]>;
  close(): Promise<void>;
}

/** Routes in this process; before each call, a stat of the index picks up a new version written by `router index`. */
export async function localSkillSource(db: string, options: Pick<RouterOptions, "models" | "skillsRoot"> = {}): Promise<SkillSource> {
  const router = await createRouter({ db, ...options });
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
    close: () => router.close(),
  };
}

/** Asks a running router (`router serve`), so several agents share one loaded index and model. */
export function remoteSkillSource(client: RouterClient): SkillSource {
  return {
    origin: `router at ${client.url}`,
    route: (query, options) => client.routeOrThrow(query, options),
    skill: (name) => client.skill(name),
    names: async () => (await client.skills()).map((skill) => skill.name),
    close: async () => {},
  };
}
