import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRouterClient } from "../../src/client/index.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { routerToolSearch } from "../../examples/ai-sdk/routed-tools.js";
import { CLI, runCli } from "../helpers/cli.js";
import { closedEndpoint } from "../helpers/mock-hub.js";
import { runProcess } from "./run-process.js";
import { startScriptedServer, type Scripted, type ScriptedServer, type SeenRequest } from "./scripted-server.js";
import { TSX } from "./tsx.js";

const dir = mkdtempSync(path.join(tmpdir(), "ai-sdk-"));
const db = path.join(dir, "tools.db");
let router: RunningServer;
let llm: ScriptedServer;

/** The feedback the router's index holds about this message, as `router feedback list --json` prints it. */
function feedbackOn(message: string): { skill: string | null; wrong: string | null; client: string; role: string }[] {
  const listed = runCli(["feedback", "list", "--db", db, "--json"]);
  expect(listed.status, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout).filter((entry: { query: string }) => entry.query === message);
}

interface ChatBody {
  tools?: { function: { name: string } }[];
  messages: { role: string }[];
}

// An OpenAI-protocol model: first it calls the first tool it was offered, then it answers with text; asked for a haiku, it writes one.
function scriptedModel(request: SeenRequest): Scripted {
  const body = JSON.parse(request.body) as ChatBody;
  const offered = body.tools?.map((item) => item.function.name) ?? [];
  const toolAnswered = body.messages.some((message) => message.role === "tool") || JSON.stringify(body.messages).includes("haiku");
  const args: Record<string, unknown> = { get_current_weather: { city: "Lisbon" }, convert_currency: { amount: 100, from: "USD", to: "EUR" } };
  const message =
    toolAnswered || offered.length === 0
      ? { role: "assistant", content: `done; I was offered: ${offered.join(", ") || "no tools"}` }
      : { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: offered[0], arguments: JSON.stringify(args[offered[0]!] ?? {}) } }] };
  const choice = { index: 0, message, finish_reason: "tool_calls" in message ? "tool_calls" : "stop" };
  return {
    status: 200,
    body: JSON.stringify({ id: "chatcmpl-1", object: "chat.completion", created: 0, model: "scripted", choices: [choice], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }),
  };
}

function offeredTools(request: SeenRequest): string[] {
  return ((JSON.parse(request.body) as ChatBody).tools ?? []).map((item) => item.function.name).sort();
}

beforeAll(async () => {
  const exported = await runProcess(process.execPath, [TSX, "examples/ai-sdk/export-tools.ts"], "");
  expect(exported.code).toBe(0);
  writeFileSync(path.join(dir, "tools.json"), exported.stdout);
  const indexed = await runProcess(process.execPath, [CLI, "index", path.join(dir, "tools.json"), "--db", db, "-q"], "");
  expect(indexed.code).toBe(0);
  router = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 0, cli: CLI });
  await router.ready;
  llm = await startScriptedServer(scriptedModel);
});

afterAll(async () => {
  await llm.close();
  await router.close();
  rmSync(dir, { recursive: true, force: true });
});

function runAgent(prompt: string, routerUrl: string) {
  return runProcess(process.execPath, [TSX, "examples/ai-sdk/agent.ts", prompt], "", { env: { ROUTER_URL: routerUrl, OPENAI_BASE_URL: `${llm.url}/v1`, OPENAI_API_KEY: "test", MODEL: "scripted" } });
}

describe("examples/ai-sdk", () => {
  it("exports the tool set in a format the router indexes under the tools' own names", async () => {
    const names = (await createRouterClient({ url: router.url }).skills()).map((skill) => skill.name).sort();
    expect(names).toEqual(["convert_currency", "create_calendar_event", "get_current_weather", "send_email"]);
  });

  it("sends the model only the tool the router picked, and the agent runs it", async () => {
    const before = llm.seen.length;
    const result = await runAgent("will it rain in Lisbon today?", router.url);
    expect(result.code, result.stderr).toBe(0);
    const requests = llm.seen.slice(before);
    expect(requests.map(offeredTools)).toEqual([["get_current_weather"], ["get_current_weather"]]);
    expect(result.stdout).toContain("step 0: called get_current_weather\nstep 1: answered\ndone; I was offered: get_current_weather");
    // Then it tells the router which tool the model used for the message.
    expect(result.stdout).toContain("\nreported get_current_weather: an example of get_current_weather\n");
    expect(feedbackOn("will it rain in Lisbon today?")).toEqual([expect.objectContaining({ skill: "get_current_weather", wrong: null, client: "ai-sdk-agent", role: "example" })]);
  });

  it("reports none when the model answers without the tool it was offered", async () => {
    const message = "write a haiku about the rain in Lisbon today";
    const result = await runAgent(message, router.url);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("step 0: answered\ndone; I was offered: get_current_weather");
    expect(result.stdout).toContain("\nreported no tool: no skill should answer it; a negative of get_current_weather, which was injected for it\n");
    expect(feedbackOn(message)).toEqual([expect.objectContaining({ skill: null, wrong: "get_current_weather", role: "none" })]);
  });

  it("offers no tool for a message no tool fits", async () => {
    const before = llm.seen.length;
    const result = await runAgent("write me a haiku about autumn leaves", router.url);
    expect(result.code, result.stderr).toBe(0);
    expect(llm.seen.slice(before).map(offeredTools)).toEqual([[]]);
    // Offered no tool, the model had no choice: nothing to tell the router.
    expect(result.stdout).toContain("not reported: the router offered no tool");
    expect(feedbackOn("write me a haiku about autumn leaves")).toEqual([]);
  });

  it("offers every tool when the router is down, so the agent still works", async () => {
    const before = llm.seen.length;
    const result = await runAgent("will it rain in Lisbon today?", await closedEndpoint());
    expect(result.code, result.stderr).toBe(0);
    expect(offeredTools(llm.seen[before]!)).toEqual(["convert_currency", "create_calendar_event", "get_current_weather", "send_email"]);
    expect(result.stdout).toMatch(/\nnot reported: Cannot reach the router at .*: ECONNREFUSED\n$/);
  });

  it("routerToolSearch answers a tool search with the router's pick among the offered tools", async () => {
    const search = routerToolSearch(createRouterClient({ url: router.url }));
    const offered = [{ name: "convert_currency" }, { name: "send_email" }, { name: "get_current_weather" }];
    expect(await search({ query: "exchange rate for 100 USD in EUR", tools: offered })).toEqual(["convert_currency"]);
    expect(await search({ query: "exchange rate for 100 USD in EUR", tools: [{ name: "send_email" }] })).toEqual([]);
  });
});
