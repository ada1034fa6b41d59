import { routableQuery } from "../contract/limits.js";
import { slashCommand } from "../contract/skill-calls.js";
import type { RouterClient } from "../client/router-client.js";
import type { RouteOptions, RouteResult } from "../client/types.js";
import { skillContext } from "./skill-context.js";

export interface HookSettings {
  route: Pick<RouteOptions, "k" | "threshold" | "multi">;
  /** Most characters of additional context to add. */
  maxChars: number;
}

/** What the hook process prints and how it exits; exit 2 would block the user's prompt, so it is never used. */
export interface HookRun {
  /** The hook output JSON for stdout, only when a skill is injected. */
  stdout?: string;
  /** One line for stderr: Claude Code keeps it out of the conversation, and shows it to the user on exit 1. */
  note?: string;
  exitCode: 0 | 1;
}

/** Claude Code's `UserPromptSubmit` input: the fields this hook reads. */
interface PromptSubmitInput {
  hook_event_name?: unknown;
  prompt?: unknown;
}

/**
 * A Claude Code `UserPromptSubmit` hook: routes the prompt and, on `inject`, answers with the skill's
 * instructions as `additionalContext`. Every failure lets the prompt through unchanged.
 */
export async function runClaudeCodeHook(stdin: string, client: RouterClient, settings: HookSettings): Promise<HookRun> {
  let input: PromptSubmitInput;
  try {
    input = JSON.parse(stdin) as PromptSubmitInput;
  } catch {
    return { note: "stdin is not the hook's JSON input; is it configured as a command hook?", exitCode: 1 };
  }
  if (typeof input !== "object" || input === null) return { note: "the hook input is not a JSON object", exitCode: 1 };
  if (input.hook_event_name !== undefined && input.hook_event_name !== "UserPromptSubmit") {
    return { note: `configured for ${String(input.hook_event_name)}; it only handles UserPromptSubmit`, exitCode: 1 };
  }
  if (typeof input.prompt !== "string" || input.prompt.trim() === "") return { exitCode: 0 };

  const result = await client.route(routableQuery(input.prompt), { ...settings.route, include: ["body"] });
  if ("error" in result) return { note: `no skill injected, ${result.reason} (${result.error.code}: ${result.error.message})`, exitCode: 0 };
  if (result.decision === "none") return { note: noSkillNote(result), exitCode: 0 };
  // Claude Code runs a skill called as a slash command itself: injecting it too would spend its tokens twice.
  const selected = result.invoked && slashCommand(input.prompt) === result.invoked ? result.selected.filter((name) => name !== result.invoked) : result.selected;
  if (selected.length === 0) return { note: `no skill injected: the prompt calls /${result.invoked}, which Claude Code loads itself`, exitCode: 0 };

  const locate = async (name: string) => (await client.skill(name))?.source_path;
  const additionalContext = await skillContext({ ...result, selected }, settings.maxChars, locate);
  return { stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext } }), note: `injected ${selected.join(", ")}`, exitCode: 0 };
}

/** Why nothing was injected, in one line: on exit 0 Claude Code keeps stderr out of the conversation, and `claude --debug` or a run by hand shows it. */
function noSkillNote(result: RouteResult): string {
  const closest = result.skills[0];
  const why = `${result.reason?.replace(/_/g, " ") ?? "none"}: in scope ${result.in_scope.toFixed(2)}, threshold ${result.threshold.toFixed(2)}`;
  return `no skill injected, ${why}${closest ? `; closest ${closest.name} ${closest.confidence.toFixed(2)}` : ""}`;
}
