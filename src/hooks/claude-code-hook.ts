import { routableQuery } from "../contract/limits.js";
import { slashCommand } from "../contract/skill-calls.js";
import { offerText } from "../contract/offer-text.js";
import type { RouterClient } from "../client/router-client.js";
import type { RouteOptions, RouteResult } from "../client/types.js";
import type { HookRun } from "./hook-run.js";
import type { RoutedPrompts } from "./routed-prompts.js";
import { skillContext } from "./skill-context.js";
import { reportLoadedSkill, type ToolUseInput } from "./skill-loaded.js";

export interface HookSettings {
  route: Pick<RouteOptions, "k" | "threshold" | "multi" | "offer">;
  /** Most characters of additional context to add. */
  maxChars: number;
  /** Each session's last routed prompt, for the report when Claude loads a skill. */
  prompts: RoutedPrompts;
  /** The longest a report of a loaded skill may wait for the router (ms): Claude waits for the hook. */
  reportTimeoutMs: number;
}

/** Claude Code's `UserPromptSubmit` input: the fields this hook reads. */
interface PromptSubmitInput {
  session_id?: unknown;
  hook_event_name?: unknown;
  prompt?: unknown;
}

/**
 * A Claude Code hook. On `UserPromptSubmit` it routes the prompt and, on `inject`, answers with the skill's
 * instructions as `additionalContext`, on `offer` with the short list for Claude to choose from; on `PostToolUse` of the
 * `Skill` tool it tells the router which skill Claude loaded for that prompt. Every failure lets Claude carry on unchanged.
 */
export async function runClaudeCodeHook(stdin: string, client: RouterClient, settings: HookSettings): Promise<HookRun> {
  let input: PromptSubmitInput & ToolUseInput;
  try {
    input = JSON.parse(stdin) as PromptSubmitInput & ToolUseInput;
  } catch {
    return { note: "stdin is not the hook's JSON input; is it configured as a command hook?", exitCode: 1 };
  }
  if (typeof input !== "object" || input === null) return { note: "the hook input is not a JSON object", exitCode: 1 };
  if (input.hook_event_name === "PostToolUse") return reportLoadedSkill(input, client, settings.prompts, settings.reportTimeoutMs);
  if (input.hook_event_name !== undefined && input.hook_event_name !== "UserPromptSubmit") {
    return { note: `configured for ${String(input.hook_event_name)}; it handles UserPromptSubmit, and PostToolUse of the Skill tool`, exitCode: 1 };
  }
  return promptSubmitted(input, client, settings);
}

async function promptSubmitted(input: PromptSubmitInput, client: RouterClient, settings: HookSettings): Promise<HookRun> {
  const sessionId = typeof input.session_id === "string" ? input.session_id : undefined;
  // Whatever this prompt gets, a skill Claude loads from now on is for it, not for an earlier one: forgotten before the
  // route, so a hook stopped mid-route (Claude Code's hook timeout) cannot leave the earlier prompt to be credited.
  if (sessionId !== undefined) settings.prompts.remember(sessionId, undefined);
  if (typeof input.prompt !== "string" || input.prompt.trim() === "") return { exitCode: 0 };

  const query = routableQuery(input.prompt);
  const result = await client.route(query, { ...settings.route, include: ["body"] });
  if ("error" in result) return { note: `no skill injected, ${result.reason} (${result.error.code}: ${result.error.message})`, exitCode: 0 };
  // A prompt that calls a skill by name left the router no choice: the skill Claude loads for it teaches nothing.
  if (sessionId !== undefined && result.invoked === null) settings.prompts.remember(sessionId, { query, route_id: result.route_id });
  if (result.decision === "none") return { note: noSkillNote(result), exitCode: 0 };
  // An offer is the agent's choice: Claude reads the list and loads one with the Skill tool (the PostToolUse hook reports it).
  if (result.decision === "offer" && result.offer) {
    const additionalContext = offerText(result.offer.skills, "with the Skill tool").slice(0, settings.maxChars);
    return { stdout: hookOutput(additionalContext), note: `offered ${result.offer.skills.map((skill) => skill.name).join(", ")}`, exitCode: 0 };
  }
  // Claude Code runs a skill called as a slash command itself: injecting it too would spend its tokens twice.
  const selected = result.invoked && slashCommand(input.prompt) === result.invoked ? result.selected.filter((name) => name !== result.invoked) : result.selected;
  if (selected.length === 0) return { note: `no skill injected: the prompt calls /${result.invoked}, which Claude Code loads itself`, exitCode: 0 };

  const locate = async (name: string) => (await client.skill(name))?.source_path;
  const additionalContext = await skillContext({ ...result, selected }, settings.maxChars, locate);
  return { stdout: hookOutput(additionalContext), note: `injected ${selected.join(", ")}`, exitCode: 0 };
}

function hookOutput(additionalContext: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext } });
}

/** Why nothing was injected, in one line: on exit 0 Claude Code keeps stderr out of the conversation, and `claude --debug` or a run by hand shows it. */
function noSkillNote(result: RouteResult): string {
  const closest = result.skills[0];
  const why = `${result.reason?.replace(/_/g, " ") ?? "none"}: in scope ${result.in_scope.toFixed(2)}, threshold ${result.threshold.toFixed(2)}`;
  return `no skill injected, ${why}${closest ? `; closest ${closest.name} ${closest.confidence.toFixed(2)}` : ""}`;
}
