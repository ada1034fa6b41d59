import { Command, Option } from "commander";
import { createRouterClient } from "../client/router-client.js";
import { runClaudeCodeHook } from "../hooks/claude-code-hook.js";
import { defaultStateDir, routedPromptsIn } from "../hooks/routed-prompts.js";
import { DEFAULT_CONTEXT_CHARS } from "../hooks/skill-context.js";

interface HookOptions {
  url?: string;
  apiKey?: string;
  timeout: string;
  k?: string;
  threshold?: string;
  multi?: boolean;
  offer: boolean;
  maxChars: string;
  stateDir?: string;
}

const AGENTS = ["claude-code"];
const DEFAULT_TIMEOUT_MS = 2000;
// Reporting a loaded skill holds Claude up, and nothing waits on its answer: it gets at most this long.
const REPORT_TIMEOUT_MS = 1000;
// Who the router records as the source of the reports.
const CLIENT_NAME = "claude-code";
// Hook input is one JSON object with the prompt; anything far larger is not hook input.
const MAX_STDIN_BYTES = 4 * 1024 * 1024;

/**
 * `router hook claude-code`: a UserPromptSubmit hook, and a PostToolUse hook of the Skill tool. It must never block
 * the prompt, and Claude Code blocks on exit code 2 (the CLI's usage code), so nothing here is a usage error: bad
 * values are reported and replaced.
 */
export function hookCommand(): Command {
  return (
    new Command("hook")
      .description(
        "agent hook: reads the hook JSON on stdin and adds the routed skill's instructions (or, when the router is not sure, a short list to load one from) to the prompt's context, and tells the router which skill the agent loaded for the prompt; never blocks the prompt",
      )
      .argument("[agent]", `which agent's hook protocol (${AGENTS.join(", ")})`)
      // The client reads ROUTER_URL and ROUTER_API_KEY by itself (src/client): the hook loads nothing more, not even the settings loader.
      .addOption(new Option("--url <url>", "where the router serves (default: ROUTER_URL, else http://127.0.0.1:8787)"))
      .addOption(new Option("--api-key <key>", "router API key (default: ROUTER_API_KEY, which keeps it out of `ps`)"))
      .addOption(new Option("--timeout <ms>", "longest wait for the router before letting the prompt through").default(String(DEFAULT_TIMEOUT_MS)))
      .addOption(new Option("-k, --k <n>", "ranked skills to consider (and, with --multi, the most to inject)"))
      .addOption(new Option("--threshold <p>", "in-scope threshold instead of the learned one"))
      .option("--multi", "inject every skill above the threshold, up to k")
      .option("--no-offer", "add a skill only when the router injects one, never a list to choose from")
      .addOption(new Option("--max-chars <n>", "most characters of context to add").default(String(DEFAULT_CONTEXT_CHARS)))
      .addOption(
        new Option("--state-dir <dir>", "where each session's last routed prompt is kept until Claude loads a skill for it (a folder only you may read)").default(
          defaultStateDir(),
          "a folder of yours in the system's temporary folder",
        ),
      )
      .allowUnknownOption()
      .allowExcessArguments()
      .addHelpText(
        "after",
        `
Exit codes: 0 always, except 1 when the hook is miswired (unknown agent, stdin not hook JSON, another event or
tool); never 2, which Claude Code reads as "block this prompt". A router that is down or slow lets the prompt through.

On PostToolUse of the Skill tool it reports the skill Claude loaded as the answer to the session's last routed
prompt (POST /feedback, client claude-code, at most ${REPORT_TIMEOUT_MS} ms), once per prompt.

.claude/settings.json:
  {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "router-hook claude-code", "timeout": 10}]}],
             "PostToolUse": [{"matcher": "Skill", "hooks": [{"type": "command", "command": "router-hook claude-code", "timeout": 5}]}]}}`,
      )
      .action(async (agent: string | undefined, options: HookOptions, command: Command) => {
        const warn = (message: string) => process.stderr.write(`skill-router hook: ${message}\n`);
        if (agent === undefined || !AGENTS.includes(agent)) {
          warn(`${agent === undefined ? "name the agent" : `unknown agent "${agent}"`}: router hook ${AGENTS.join("|")}`);
          process.exitCode = 1;
          return;
        }
        if (command.args.length > 1) warn(`ignored: ${command.args.slice(1).join(" ")}`);
        if (process.stdin.isTTY) {
          warn("pipe the hook's JSON input on stdin (Claude Code does this)");
          process.exitCode = 1;
          return;
        }
        const number = (name: string, value: string | undefined, min: number, max: number, fallback?: number): number | undefined => {
          if (value === undefined) return fallback;
          const parsed = Number(value);
          if (parsed >= min && parsed <= max) return parsed;
          warn(`--${name} ${value} is not a number from ${min} to ${max}; using ${fallback ?? "the router's default"}`);
          return fallback;
        };
        const k = number("k", options.k, 1, 50);
        const threshold = number("threshold", options.threshold, 0, 1);
        const timeoutMs = Math.round(number("timeout", options.timeout, 1, 600_000, DEFAULT_TIMEOUT_MS)!);
        const client = createRouterClient({
          ...(options.url ? { url: options.url } : {}),
          ...(options.apiKey ? { apiKey: options.apiKey } : {}),
          timeoutMs,
          clientName: CLIENT_NAME,
        });
        const run = await runClaudeCodeHook(await readStdin(), client, {
          route: {
            ...(k !== undefined ? { k: Math.round(k) } : {}),
            ...(threshold !== undefined ? { threshold } : {}),
            ...(options.multi ? { multi: true } : {}),
            ...(options.offer ? {} : { offer: false }),
          },
          maxChars: Math.round(number("max-chars", options.maxChars, 1000, 1_000_000, DEFAULT_CONTEXT_CHARS)!),
          prompts: routedPromptsIn(options.stateDir ?? defaultStateDir()),
          reportTimeoutMs: Math.min(timeoutMs, REPORT_TIMEOUT_MS),
        });
        if (run.stdout) process.stdout.write(`${run.stdout}\n`);
        if (run.note) warn(run.note);
        process.exitCode = run.exitCode;
      })
  );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_STDIN_BYTES) break;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
