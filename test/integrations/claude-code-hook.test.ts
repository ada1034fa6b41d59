import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { routedPromptsIn } from "../../src/hooks/routed-prompts.js";
import { runIndex } from "../../src/indexer/run-index.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { CLI, runCli } from "../helpers/cli.js";
import { writeAgentSkill } from "../helpers/fixtures.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { INVOICE_REQUEST, indexOfferSkills } from "../helpers/offer-skills.js";
import { closedEndpoint } from "../helpers/mock-hub.js";
import { waitUntil } from "../helpers/wait.js";
import { binShims } from "./bin-shims.js";
import { startScriptedServer } from "./scripted-server.js";
import { runProcess } from "./run-process.js";

const HOOK = path.resolve("dist/cli/hook-main.js");
const dir = mkdtempSync(path.join(tmpdir(), "hook-"));
const examplePrompt = readFileSync("examples/claude-code/prompt.json", "utf8");
const exampleSkillLoaded = readFileSync("examples/claude-code/skill-loaded.json", "utf8");
// Where the hook keeps each session's last routed prompt in these tests (the default is in the system's temporary folder).
const stateDir = path.join(dir, "hook-state");
let server: RunningServer;
let db: string;

beforeAll(async () => {
  const set = await indexSkillSet(dir);
  const { root } = set;
  db = set.db;
  // Longer than the 1000-character context the cutting test allows.
  writeAgentSkill(root, "terraform-drift", {
    description: "Find and fix Terraform state drift: resources changed outside Terraform. Use when terraform plan shows unexpected changes.",
    body: `# Terraform drift\n\n${"Run terraform plan -refresh-only and compare each changed attribute with the console history.\n".repeat(30)}`,
  });
  await runIndex({ paths: [root], db });
  server = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 0, cli: CLI });
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
  return runProcess(process.execPath, [HOOK, "claude-code", "--state-dir", stateDir, ...args], input, { env: { ROUTER_URL: server.url, ...env } });
}

/** Claude Code's input when Claude has loaded a skill with the Skill tool, in session `session`. */
function skillLoaded(session: string, skill: string, tool = "Skill"): string {
  return JSON.stringify({ ...JSON.parse(exampleSkillLoaded), session_id: session, tool_name: tool, tool_input: { skill } });
}

function promptIn(session: string, prompt: string): string {
  return JSON.stringify({ ...JSON.parse(hookInput(prompt)), session_id: session });
}

/** The feedback the router's index holds about this prompt, as `router feedback list --json` prints it. */
function feedbackOn(prompt: string): { query: string; skill: string | null; wrong: string | null; client: string; role: string }[] {
  const listed = runCli(["feedback", "list", "--db", db, "--json"]);
  expect(listed.status, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout).filter((entry: { query: string }) => entry.query === prompt);
}

describe("router-hook claude-code", () => {
  it("runs as the example settings.json says, and adds the skill's instructions as additional context", async () => {
    const settings = JSON.parse(readFileSync("examples/claude-code/settings.json", "utf8"));
    const command: string = settings.hooks.UserPromptSubmit[0].hooks[0].command;
    const result = await runProcess(command, [], examplePrompt, { shell: true, env: { ROUTER_URL: server.url, TMPDIR: dir, ...binShims(path.join(dir, "bin")).env } });
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

describe("router-hook claude-code on PostToolUse of the Skill tool", () => {
  it("runs as the example settings.json says, and reports the skill Claude loaded for the prompt the router saw, once", async () => {
    const settings = JSON.parse(readFileSync("examples/claude-code/settings.json", "utf8"));
    expect(settings.hooks.PostToolUse[0].matcher).toBe("Skill");
    const run = (command: string, input: string) => runProcess(command, [], input, { shell: true, env: { ROUTER_URL: server.url, TMPDIR: dir, ...binShims(path.join(dir, "bin")).env } });
    const prompt = "the pods of the payments deployment restart every few minutes, why?";
    const routed = await run(settings.hooks.UserPromptSubmit[0].hooks[0].command, promptIn("session-settings", prompt));
    expect(routed.stderr).toContain("injected k8s-debug");

    const reported = await run(settings.hooks.PostToolUse[0].hooks[0].command, skillLoaded("session-settings", "k8s-debug"));
    expect([reported.code, reported.stdout]).toEqual([0, ""]);
    expect(reported.stderr).toBe("skill-router hook: reported k8s-debug for the prompt: an example of k8s-debug\n");
    expect(feedbackOn(prompt)).toEqual([expect.objectContaining({ skill: "k8s-debug", wrong: null, client: "claude-code", role: "example" })]);

    // A second skill loaded for the same prompt is not reported: the first one answered it.
    const again = await run(settings.hooks.PostToolUse[0].hooks[0].command, skillLoaded("session-settings", "sql-query-review"));
    expect([again.code, again.stderr]).toEqual([0, "skill-router hook: sql-query-review loaded; no prompt of this session routed since to report it for\n"]);
    expect(feedbackOn(prompt)).toEqual([expect.objectContaining({ skill: "k8s-debug" })]);
  });

  it("reports a skill other than the injected one as a correction, by the skill's own name when a plugin qualifies it", async () => {
    const prompt = "the pods of the billing service restart in a loop and the logs mention the postgres query planner";
    const routed = await runHook(promptIn("session-correction", prompt));
    const injected = /injected ([\w-]+)/.exec(routed.stderr)?.[1] ?? null;
    const reported = await runHook(skillLoaded("session-correction", "db-tools:sql-query-review"));
    expect(reported.stderr).toMatch(/^skill-router hook: reported sql-query-review for the prompt: an example of sql-query-review/);
    expect(feedbackOn(prompt)).toEqual([expect.objectContaining({ skill: "sql-query-review", wrong: injected === "sql-query-review" ? null : injected, client: "claude-code" })]);
  });

  it("keeps each session's prompt apart, in a file only its user may read, and reports nothing for a slash command or another session", async () => {
    const prompt = "the cronjob pods of the reporting namespace fail with OOMKilled";
    await runHook(promptIn("session-a", prompt));
    const files = readdirSync(stateDir);
    expect(files.length).toBeGreaterThan(0);
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    for (const file of files) expect(statSync(path.join(stateDir, file)).mode & 0o777).toBe(0o600);
    // Another session loading a skill is not about session-a's prompt.
    expect((await runHook(skillLoaded("session-b", "k8s-debug"))).stderr).toContain("no prompt of this session routed since");
    // A slash command left the router no choice: the skill Claude loads for it says nothing about routing.
    await runHook(promptIn("session-a", "/k8s-debug the cronjob pods fail with OOMKilled"));
    expect((await runHook(skillLoaded("session-a", "k8s-debug"))).stderr).toContain("no prompt of this session routed since");
    expect(feedbackOn(prompt)).toEqual([]);
    expect(feedbackOn("/k8s-debug the cronjob pods fail with OOMKilled")).toEqual([]);
  });

  it("replaces a session's prompt with a whole new file: one who opened the earlier one reads all of it, and nothing else is left", () => {
    const folder = path.join(dir, "replace-state");
    const prompts = routedPromptsIn(folder);
    prompts.remember("session-replace", { query: "the first prompt", route_id: "route-1" });
    const [file] = readdirSync(folder);
    const reader = openSync(path.join(folder, file!), "r");
    try {
      prompts.remember("session-replace", { query: "the second prompt", route_id: "route-2" });
      // A PostToolUse hook reading as the next prompt is remembered gets the earlier prompt whole, not a rewritten file.
      expect(JSON.parse(readFileSync(reader, "utf8"))).toEqual({ query: "the first prompt", route_id: "route-1" });
    } finally {
      closeSync(reader);
    }
    expect(readdirSync(folder)).toEqual([file]);
    expect(statSync(path.join(folder, file!)).mode & 0o777).toBe(0o600);
    expect(prompts.take("session-replace")).toEqual({ query: "the second prompt", route_id: "route-2" });
    expect(readdirSync(folder)).toEqual([]);
  });

  it("forgets the session's last prompt before routing the next: a hook stopped mid-route leaves no earlier prompt to report a skill for", async () => {
    const prompt = "the worker pods restart whenever the queue backs up";
    expect((await runHook(promptIn("session-stopped", prompt))).stderr).toContain("injected k8s-debug");
    const silent = await startScriptedServer(() => "hang");
    try {
      // Claude Code stops a hook that outlives its timeout, here while the router has not answered.
      const hook = spawn(process.execPath, [HOOK, "claude-code", "--state-dir", stateDir, "--timeout", "60000"], {
        env: { ...process.env, ROUTER_URL: silent.url },
        stdio: ["pipe", "ignore", "ignore"],
      });
      hook.stdin.end(promptIn("session-stopped", "and the scheduler pods too"));
      await waitUntil(() => silent.seen.length === 1, "the hook's route request");
      hook.kill("SIGKILL");
      await once(hook, "exit");
    } finally {
      await silent.close();
    }
    expect((await runHook(skillLoaded("session-stopped", "k8s-debug"))).stderr).toContain("no prompt of this session routed since");
    expect(feedbackOn(prompt)).toEqual([]);
  });

  it("remembers nothing in a state folder others may read, and still routes", async () => {
    const open = path.join(dir, "open-state");
    mkdirSync(open);
    chmodSync(open, 0o777);
    const routed = await runHook(promptIn("session-open", "my pod keeps restarting with CrashLoopBackOff"), ["--state-dir", open]);
    expect(JSON.parse(routed.stdout).hookSpecificOutput.additionalContext).toContain('"k8s-debug"');
    expect(readdirSync(open)).toEqual([]);
  });

  it("never fails or holds Claude up for long when the router is down or hangs", async () => {
    await runHook(promptIn("session-down", "the ingress pods restart after every deploy"));
    const down = await runHook(skillLoaded("session-down", "k8s-debug"), [], { ROUTER_URL: await closedEndpoint() });
    expect([down.code, down.stdout]).toEqual([0, ""]);
    expect(down.stderr).toContain("could not report k8s-debug (ROUTER_UNREACHABLE");
    const silent = await startScriptedServer(() => "hang");
    try {
      await runHook(promptIn("session-hung", "the ingress pods restart after every deploy"));
      const started = performance.now();
      const hung = await runHook(skillLoaded("session-hung", "k8s-debug"), ["--timeout", "5000"], { ROUTER_URL: silent.url });
      expect([hung.code, hung.stdout]).toEqual([0, ""]);
      expect(hung.stderr).toContain("could not report k8s-debug (ROUTER_TIMEOUT");
      // The report waits at most a second, whatever --timeout gives the prompt.
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      await silent.close();
    }
  });

  it("is miswired on PostToolUse of another tool: exit 1, which Claude Code shows without blocking", async () => {
    const result = await runHook(skillLoaded("session-bash", "k8s-debug", "Bash"));
    expect([result.code, result.stdout]).toEqual([1, ""]);
    expect(result.stderr).toContain('give it "matcher": "Skill"');
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
    expect(help.stdout).toContain('"PostToolUse": [{"matcher": "Skill"');
  });
});

describe("router-hook claude-code when the router offers a list, and for a flagged skill", () => {
  const offerDir = mkdtempSync(path.join(tmpdir(), "hook-offer-"));
  let offering: RunningServer;
  let offerDb: string;

  beforeAll(async () => {
    offerDb = await indexOfferSkills(offerDir);
    offering = await startServer({ db: offerDb, host: "127.0.0.1", port: 0, reloadIntervalMs: 0, cli: CLI });
    await offering.ready;
  });

  afterAll(async () => {
    await offering.close();
    rmSync(offerDir, { recursive: true, force: true });
  });

  const hook = (input: string) => runProcess(process.execPath, [HOOK, "claude-code", "--state-dir", path.join(offerDir, "state")], input, { env: { ROUTER_URL: offering.url } });

  it("lists the offered skills, name and description, with a line saying to load one with the Skill tool, and reports the one Claude loads", async () => {
    const routed = await hook(promptIn("session-offer", INVOICE_REQUEST));
    expect(routed.stderr, routed.stderr).toMatch(/offered (invoice-[a-z]+, ){2}invoice-[a-z]+\n/);
    const context: string = JSON.parse(routed.stdout).hookSpecificOutput.additionalContext;
    expect(context).toContain("- invoice-pdf: Create PDF invoices for clients with line items and tax.");
    expect(context).toContain("- invoice-maker: Create PDF invoices for clients with line items and VAT.");
    expect(context).toContain("load it with the Skill tool");
    // The skill Claude loads from the list is the agent's answer: an example of it, and no other skill was wrong.
    const reported = await hook(skillLoaded("session-offer", "invoice-maker"));
    expect(reported.stderr).toBe("skill-router hook: reported invoice-maker for the prompt: an example of invoice-maker\n");
  });

  it("puts a plain warning before a flagged skill's instructions, and never injects it unless the prompt calls it", async () => {
    const named = await hook(hookInput("$machine-setup get my new laptop ready"));
    const context: string = JSON.parse(named.stdout).hookSpecificOutput.additionalContext;
    expect(context).toMatch(/WARNING: skill-router flagged "machine-setup" as risky: .+\. Do not do any of that without asking the user first\.\n<skill name="machine-setup">/);
    const unnamed = await hook(hookInput("set up a new developer machine with the team's tools"));
    expect(unnamed.stderr).not.toContain("injected machine-setup");
    if (unnamed.stdout !== "") expect(JSON.parse(unnamed.stdout).hookSpecificOutput.additionalContext).toContain('WARNING: skill-router flagged "machine-setup"');
  });
});
