// Tool selection by the router: the model sees only the tools it picks for the user's message.
import type { ModelMessage, PrepareStepFunction, ToolSet } from "ai";
import type { RouteOptions, RouterClient } from "skill-router/client";

export interface RoutedToolsOptions<TOOLS extends ToolSet> {
  /** Tools the model always sees, whatever the router says. */
  always?: (keyof TOOLS & string)[];
  /** Passed to POST /route; by default every tool above the threshold, up to 3. */
  route?: RouteOptions;
}

/**
 * An AI SDK `prepareStep` that sets `activeTools` to the tools the router selects for the latest user message.
 * The tools must be indexed under their keys (export-tools.ts). When the router cannot answer, every tool stays loaded.
 */
export function routedTools<TOOLS extends ToolSet>(client: RouterClient, tools: TOOLS, options: RoutedToolsOptions<TOOLS> = {}): PrepareStepFunction<TOOLS> {
  const names = Object.keys(tools);
  const always = options.always ?? [];
  // Every step of one call sees the same user message: route it once.
  let last: { query: string; active: (keyof TOOLS & string)[] | undefined } | undefined;
  return async ({ messages }) => {
    const query = latestUserText(messages);
    if (query === undefined) return {};
    if (last?.query !== query) {
      const result = await client.route(query, { multi: true, k: 3, skills: names, ...options.route });
      last = { query, active: "error" in result ? undefined : [...new Set([...always, ...result.selected])] };
    }
    return last.active === undefined ? {} : { activeTools: last.active };
  };
}

/**
 * The same choice as a tool-search function `({ query, tools }) => names`: the shape of the `search` option of
 * `toolSearch()` in AI SDK 7 (which needs Node 22), for models that look tools up themselves.
 */
export function routerToolSearch(client: RouterClient, route: RouteOptions = {}) {
  return async ({ query, tools }: { query: string; tools: { name: string }[] }): Promise<string[]> => {
    const result = await client.route(query, { multi: true, k: 5, skills: tools.map((item) => item.name), ...route });
    return result.selected;
  };
}

function latestUserText(messages: ModelMessage[]): string | undefined {
  const message = messages.findLast((item) => item.role === "user");
  if (!message) return undefined;
  const text = typeof message.content === "string" ? message.content : message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  return text.trim() === "" ? undefined : text;
}
