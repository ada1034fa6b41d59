import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runIndex } from "../../src/indexer/run-index.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { CLI } from "../helpers/cli.js";
import { writeAgentSkill } from "../helpers/fixtures.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { closedEndpoint } from "../helpers/mock-hub.js";
import { binShims } from "./bin-shims.js";
import { startScriptedServer } from "./scripted-server.js";
import { runProcess } from "./run-process.js";

const HOOK = path.resolve("dist/cli/hook-main.js");
const dir = mkdtempSync(path.join(tmpdir(), "hook-"));
const examplePrompt = readFileSync("examples/claude-code/prompt.json", "utf8");
let server: RunningServer;

beforeAll(async () => {
  const { root, db } = await indexSkillSet(dir);
  // Longer than the 1000-character context the cutting test allows.
  writeAgentSkill(root, "terraform-drift", {
    description: "Find and fix Terraform state drift: resources changed outside Terraform. Use when terraform plan shows unexpected changes.",
    body: `# Terraform drift\n\n${"Run terraform plan -refresh-only and compare each changed attribute with the console history.\n".repeat(30)}`,
  });
  await runIndex({ paths: [root], db });
  server = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 0 });
  await server.ready;
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function hookInput(prompt: string, event = "UserPromptSubmit"): string {
  return JSON.stringify({ ...JSON.parse(examplePrompt), hook_event_name: event, prompt });
}

function runHook(input: string, args: string[] = [], env: NodeJS.ProcessEnv = {}) {
  return runProcess(process.execPath, [HOOK, "claude-code", ...args], input, { env: { ROUTER_URL: server.url, ...env } });
}

describe("router-hook claude-code", () => {
  it("runs as the example settings.json says, and adds the skill's instructions as additional context", async () => {
    const settings = JSON.parse(readFileSync("examples/claude-code/settings.json", "utf8"));
    const command: string = settings.hooks.UserPromptSubmit[0].hooks[0].command;
    const result = await runProcess(command, [], examplePrompt, { shell: true, env: { ROUTER_URL: server.url, ...binShims(path.join(dir, "bin")).env } });
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(Object.keys(output)).toEqual(["hookSpecificOutput"]);
    expect(output.hookSpecificOutput.hookEventName).toBe("UserPromptSubmit");
    const context: string = output.hookSpecificOutput.additionalContext;
    expect(context).toMatch(/^skill-router matched this prompt to the skill "k8s-debug" \(confidence \d\.\d\d\)\. Its instructions follow/);
    expect(context).toContain('<skill name="k8s-debug">\n# Kubernetes debugging');
    expect(context).toContain("kubectl describe pod");
    expect(result.stderr).toContain("injected k8s-debug");
  });

  it("leaves a skill called as a slash command to Claude Code, which loads it itself, and injects one called as $name", async () => {
    const slash = await runHook(hookInput("/k8s-debug my pod keeps restarting"));
    expect([slash.code, slash.stdout]).toEqual([0, ""]);
    expect(slash.stderr).toBe("skill-router hook: no skill injected: the prompt calls /k8s-debug, which Claude Code loads itself\n");
    const dollar = await runHook(hookInput("$k8s-debug my pod keeps restarting"));
    expect(JSON.parse(dollar.stdout).hookSpecificOutput.additionalContext).toContain('<skill name="k8s-debug">');
  });

  it("lets a prompt no skill fits through without a word on stdout, and says why in one line on stderr", async () => {
    const result = await runHook(hookInput("what is the capital of France?"));
    expect([result.code, result.stdout]).toEqual([0, ""]);
    expect(result.stderr).toMatch(/^skill-router hook: no skill injected, [a-z ]+: in scope \d\.\d\d, threshold \d\.\d\d(; closest [\w-]+ \d\.\d\d)?\n$/);
  });

  it("lets the prompt through when the router is down or hangs, within the timeout", async () => {
    const down = await runHook(hookInput("my pod keeps restarting"), [], { ROUTER_URL: await closedEndpoint() });
    expect([down.code, down.stdout]).toEqual([0, ""]);
    expect(down.stderr).toContain("router_unavailable (ROUTER_UNREACHABLE");
    const silent = await startScriptedServer(() => "hang");
    try {
      const hung = await runHook(hookInput("my pod keeps restarting"), ["--timeout", "300"], { ROUTER_URL: silent.url });
      expect([hung.code, hung.stdout]).toEqual([0, ""]);
      // The hook's own budget ended the wait: the router never answers, so nothing else could have.
      expect(hung.stderr).toContain("ROUTER_TIMEOUT");
      expect(silent.seen).toHaveLength(1);
    } finally {
      await silent.close();
    }
  });

  it("cuts a long skill to the context budget and says where the whole skill is", async () => {
    const result = await runHook(hookInput("terraform plan shows drift: resources changed outside terraform"), ["--max-chars", "1000"]);
    const context: string = JSON.parse(result.stdout).hookSpecificOutput.additionalContext;
    expect(context).toContain('"terraform-drift"');
    expect(context.length).toBeLessThanOrEqual(1000);
    expect(context).toMatch(/\[cut to the first \d+ of \d+ characters: read the whole skill at .*terraform-drift.SKILL\.md\]\n<\/skill>$/);
  });

  it("routes a prompt longer than the router accepts by its beginning", async () => {
    const result = await runHook(hookInput(`my pod keeps restarting with CrashLoopBackOff ${"and here is the log line ".repeat(600)}`));
    expect(JSON.parse(result.stdout).hookSpecificOutput.additionalContext).toContain('"k8s-debug"');
  });

  it("injects several skills with --multi and a low threshold", async () => {
    const result = await runHook(hookInput("my pod keeps restarting and the SQL query behind it is slow"), ["--multi", "--threshold", "0", "-k", "2"]);
    const context: string = JSON.parse(result.stdout).hookSpecificOutput.additionalContext;
    expect(context).toMatch(/^skill-router matched this prompt to the skill "[\w-]+" \(confidence \d\.\d\d\) and the skill "[\w-]+" .*Their instructions follow/);
    expect(context.match(/<skill name=/g)).toHaveLength(2);
  });
});

describe("a miswired hook never blocks the prompt", () => {
  it.each([
    ["stdin that is not JSON", "not json", [], 1],
    ["another event's input", hookInput("hi", "PreToolUse"), [], 1],
    ["an empty prompt", hookInput("   "), [], 0],
    ["unknown flags and bad values", hookInput("what is the capital of France?"), ["--bogus", "--timeout", "soon", "-k", "99"], 0],
  ])("%s: exit %s, nothing on stdout", async (_label, input, args, code) => {
    const result = await runHook(input, args as string[]);
    expect([result.code, result.stdout]).toEqual([code, ""]);
  });

  it("exits 1, not the CLI's usage code 2, for an unknown agent through either entry point", async () => {
    const viaRouter = await runProcess(process.execPath, [CLI, "hook", "cursor", "--what"], hookInput("hi"));
    const viaHook = await runProcess(process.execPath, [HOOK], hookInput("hi"));
    expect([viaRouter.code, viaHook.code]).toEqual([1, 1]);
    expect(viaRouter.stderr).toContain('unknown agent "cursor"');
  });

  it("documents itself with --help", async () => {
    const help = await runProcess(process.execPath, [HOOK, "--help"], "");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("UserPromptSubmit");
    expect(help.stdout).toContain("never 2");
  });
});
