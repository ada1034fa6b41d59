import type { RouterClient } from "../client/router-client.js";
import type { HookRun } from "./hook-run.js";
import type { RoutedPrompts } from "./routed-prompts.js";

/** Claude Code's `PostToolUse` input: the fields this hook reads. */
export interface ToolUseInput {
  session_id?: unknown;
  tool_name?: unknown;
  tool_input?: unknown;
}

/**
 * A Claude Code `PostToolUse` hook on the `Skill` tool: Claude loaded a skill, so that skill answers the prompt the
 * router saw last in this session. Tells the router (POST /feedback with the prompt's route_id); every failure is a note.
 */
export async function reportLoadedSkill(input: ToolUseInput, client: RouterClient, prompts: RoutedPrompts, timeoutMs: number): Promise<HookRun> {
  if (input.tool_name !== "Skill") return { note: `configured for PostToolUse of ${String(input.tool_name)}; give it "matcher": "Skill"`, exitCode: 1 };
  const skill = skillName(input.tool_input);
  if (skill === undefined) return { note: "the Skill tool's input names no skill", exitCode: 0 };
  const prompt = typeof input.session_id === "string" ? prompts.take(input.session_id) : undefined;
  if (!prompt) return { note: `${skill} loaded; no prompt of this session routed since to report it for`, exitCode: 0 };
  try {
    const { stored } = await client.feedback({ query: prompt.query, skill, route_id: prompt.route_id }, { timeoutMs });
    return { note: `reported ${skill} for the prompt: ${stored.note}`, exitCode: 0 };
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    return { note: `could not report ${skill} (${code ?? "ERROR"}: ${message ?? String(error)})`, exitCode: 0 };
  }
}

/** The skill's name as the router indexes it: a plugin's skill (`plugin:name`) by its own name. */
function skillName(toolInput: unknown): string | undefined {
  const named = (toolInput as { skill?: unknown } | null)?.skill;
  if (typeof named !== "string") return undefined;
  const name = named.slice(named.lastIndexOf(":") + 1).trim();
  return name === "" ? undefined : name;
}
