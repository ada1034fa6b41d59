// Tool selection by the router: the model sees only the tools it picks for the user's message, and the router hears
// which tool the model then used.
import type { ModelMessage, PrepareStepFunction, ToolSet } from "ai";
import type { FeedbackResult, RouteOptions, RouteOutcome, RouterClient } from "skill-router/client";

export interface RoutedToolsOptions<TOOLS extends ToolSet> {
  /** Tools the model always sees, whatever the router says. */
  always?: (keyof TOOLS & string)[];
  /** Passed to POST /route (k, threshold, exclude...). */
  route?: RouteOptions;
}

/** What a generateText or streamText result says of the tools the model called, step by step. */
export type ToolSteps = readonly { toolCalls: readonly { toolName: string }[] }[];

/** A `prepareStep`, and `report(steps)` to call once the model has answered. */
export type RoutedTools<TOOLS extends ToolSet> = PrepareStepFunction<TOOLS> & {
  /**
   * Tells the router which tool the model used for the message (the first it called), or that it needed none, with the
   * route_id of the router's answer. Resolves to what the router stored, or undefined when there is nothing to say:
   * the model was offered none of the router's tools, so its answer says nothing of the router's choice. Rejects with
   * a RouterClientError when the router cannot take it.
   */
  report(steps: ToolSteps): Promise<FeedbackResult | undefined>;
};

/**
 * An AI SDK `prepareStep` that sets `activeTools` to the tools the router hands the model for the latest user message:
 * the one it injects, or the short list it offers when it is not sure (the model then chooses, as it chooses tools), or
 * none. The tools must be indexed under their keys (export-tools.ts). When the router cannot answer, every tool stays loaded.
 */
export function routedTools<TOOLS extends ToolSet>(client: RouterClient, tools: TOOLS, options: RoutedToolsOptions<TOOLS> = {}): RoutedTools<TOOLS> {
  const names = Object.keys(tools);
  const always = options.always ?? [];
  // Every step of one call sees the same user message: route it once. `selected` is undefined when the router did not answer.
  let last: { query: string; routeId?: string; selected?: string[] } | undefined;
  const prepareStep: PrepareStepFunction<TOOLS> = async ({ messages }) => {
    const query = latestUserText(messages);
    if (query === undefined) return {};
    if (last?.query !== query) {
      const result = await client.route(query, { k: 3, skills: names, ...options.route });
      last = "error" in result ? { query } : { query, routeId: result.route_id, selected: handedTools(result) };
    }
    return last.selected === undefined ? {} : { activeTools: [...new Set([...always, ...last.selected])] };
  };
  return Object.assign(prepareStep, {
    async report(steps: ToolSteps) {
      const used = steps.flatMap((step) => step.toolCalls)[0]?.toolName;
      // A tool offered and not used is no wrong answer: only what the model used (or, given one tool, declined) teaches.
      if (!last || (used === undefined && last.selected?.length !== 1)) return undefined;
      return client.feedback({ query: last.query, skill: used ?? null, ...(last.routeId ? { route_id: last.routeId } : {}) });
    },
  });
}

/**
 * The same choice as a tool-search function `({ query, tools }) => names`: the shape of the `search` option of
 * `toolSearch()` in AI SDK 7 (which needs Node 22), for models that look tools up themselves.
 */
export function routerToolSearch(client: RouterClient, route: RouteOptions = {}) {
  return async ({ query, tools }: { query: string; tools: { name: string }[] }): Promise<string[]> => {
    const result = await client.route(query, { k: 5, skills: tools.map((item) => item.name), ...route });
    return handedTools(result);
  };
}

/** The tools an answer hands the model: the injected one, the offered ones, or none. */
function handedTools(result: RouteOutcome): string[] {
  return result.decision === "offer" && result.offer ? result.offer.skills.map((skill) => skill.name) : result.selected;
}

function latestUserText(messages: ModelMessage[]): string | undefined {
  const message = messages.findLast((item) => item.role === "user");
  if (!message) return undefined;
  const text = typeof message.content === "string" ? message.content : message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  return text.trim() === "" ? undefined : text;
}
