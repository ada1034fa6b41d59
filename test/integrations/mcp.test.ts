import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { runIndex } from "../../src/indexer/run-index.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { CLI, runCli } from "../helpers/cli.js";
import { writeAgentSkill } from "../helpers/fixtures.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { INVOICE_REQUEST, indexOfferSkills } from "../helpers/offer-skills.js";
import { waitUntil } from "../helpers/wait.js";
import { closedEndpoint } from "../helpers/mock-hub.js";
import { binShims } from "./bin-shims.js";
import { runProcess } from "./run-process.js";
import { TSX } from "./tsx.js";

const dir = mkdtempSync(path.join(tmpdir(), "mcp-"));
let db: string;
let client: Client;
const transportErrors: Error[] = [];

type ToolResult = { content: { type: string; text: string }[]; structuredContent?: any; isError?: boolean };

async function connect(args: string[]): Promise<Client> {
  const connected = new Client({ name: "mcp-test", version: "1.0.0" });
  connected.onerror = (error) => transportErrors.push(error);
  await connected.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], stderr: "pipe" }));
  return connected;
}

async function call(target: Client, name: string, args: unknown): Promise<ToolResult> {
  return (await target.callTool({ name, arguments: args as Record<string, unknown> })) as ToolResult;
}

beforeAll(async () => {
  const set = await indexSkillSet(dir);
  db = set.db;
  writeAgentSkill(set.root, "terraform-drift", {
    description: "Find and fix Terraform state drift. Use when terraform plan shows changes nobody made in code.",
    body: "# Terraform drift\n\nRun terraform plan -refresh-only.\n",
    files: { "scripts/drift-report.sh": "#!/bin/sh\n", "references/import-blocks.md": "# import\n" },
  });
  await runIndex({ paths: [set.root], db });
  client = await connect(["--db", db]);
});

afterAll(async () => {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("router mcp over stdio", () => {
  it("lists find_skill and read_skill with their input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["find_skill", "read_skill", "report_skill"]);
    const find = tools.find((tool) => tool.name === "find_skill")!;
    expect(find.inputSchema).toMatchObject({ type: "object", required: ["query"], properties: { query: { type: "string", maxLength: 8000 }, k: { type: "integer" } } });
    expect(find.outputSchema?.properties).toHaveProperty("decision");
    expect(find.annotations).toMatchObject({ readOnlyHint: true });
    const report = tools.find((tool) => tool.name === "report_skill")!;
    expect(report.inputSchema).toMatchObject({ type: "object", required: ["query", "skill"], properties: { query: { type: "string" }, route_id: { type: "string" } } });
    expect(report.outputSchema?.properties).toHaveProperty("stored");
    expect(report.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
  });

  it("find_skill ranks skills with confidence and the evidence behind it", async () => {
    const result = await call(client, "find_skill", { query: "my pod keeps restarting with CrashLoopBackOff", k: 2 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ decision: "inject", selected: ["k8s-debug"], reason: null });
    expect(result.structuredContent.skills).toHaveLength(2);
    expect(result.structuredContent.skills[0]).toMatchObject({ name: "k8s-debug", kind: "skill", confidence: expect.any(Number), nearest_query: expect.any(String) });
    expect(result.content[0]!.text).toMatch(/^inject: k8s-debug\. Read it with read_skill.*\n1\. k8s-debug \[skill\] confidence [01]\.\d\d: Debug failing Kubernetes pods/);
  });

  it("find_skill says when the request calls the skill by name", async () => {
    const result = await call(client, "find_skill", { query: "$k8s-debug what is the capital of France?" });
    expect(result.structuredContent).toMatchObject({ decision: "inject", selected: ["k8s-debug"], invoked: "k8s-debug" });
    expect(result.content[0]!.text).toMatch(/^inject: k8s-debug \(the request calls k8s-debug by name\)\. Read it with read_skill/);
  });

  it("find_skill says none, and why, for a request no skill fits", async () => {
    const result = await call(client, "find_skill", { query: "what is the capital of France?" });
    expect(result.structuredContent).toMatchObject({ decision: "none", selected: [], reason: "below_threshold" });
    expect(result.content[0]!.text).toMatch(/^none: no skill fits this request \(in scope 0\.\d\d < threshold 0\.\d\d\)/);
  });

  it("read_skill returns the body as injected and the supporting files", async () => {
    const result = await call(client, "read_skill", { name: "terraform-drift" });
    expect(result.structuredContent).toMatchObject({
      name: "terraform-drift",
      kind: "skill",
      body: expect.stringContaining("terraform plan -refresh-only"),
      source_path: expect.stringMatching(/terraform-drift.SKILL\.md$/),
      supporting_files: ["references/import-blocks.md", "scripts/drift-report.sh"],
    });
    expect(result.content[0]!.text).toContain("scripts/drift-report.sh");
  });

  it.each([
    ["find_skill without a query", "find_skill", {}, /Input validation error.*query/],
    ["find_skill with a number for the query", "find_skill", { query: 42 }, /expected string/],
    ["find_skill with a blank query", "find_skill", { query: "   " }, /Input validation error/],
    ["find_skill with an over-long query", "find_skill", { query: "x".repeat(8001) }, /Input validation error/],
    ["find_skill with k = 0", "find_skill", { query: "hi", k: 0 }, /Input validation error.*k/],
    ["read_skill without a name", "read_skill", {}, /Input validation error.*name/],
    ["read_skill of a misspelt skill", "read_skill", { name: "k8s-debugg" }, /No skill named "k8s-debugg"\. Similar names: k8s-debug\./],
    ["read_skill of a path", "read_skill", { name: "../../etc/passwd" }, /No skill named/],
    ["a tool that does not exist", "delete_skill", { name: "k8s-debug" }, /Tool delete_skill not found/],
  ])("%s is an MCP tool error, and the server carries on", async (_label, tool, args, message) => {
    const result = await call(client, tool, args);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(message);
    expect((await call(client, "find_skill", { query: "slow postgres query" })).isError).toBeFalsy();
  });

  it("writes nothing but protocol messages to stdout", () => {
    expect(transportErrors).toEqual([]);
  });

  it("answers a line that is not JSON with a JSON-RPC parse error (-32700, id null), and JSON that is not JSON-RPC with -32600, then carries on", async () => {
    const lines = [
      "this is not json",
      '{"jsonrpc":"2.0","id":1,',
      '{"hello":"world"}',
      JSON.stringify({ jsonrpc: "2.0", id: 7, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } } }),
    ];
    const result = await runProcess(process.execPath, [CLI, "mcp", "--db", db], `${lines.join("\n")}\n`);
    expect(result.code).toBe(0);
    const answers = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(answers.slice(0, 3)).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } },
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) } },
    ]);
    expect(answers[3]).toMatchObject({ jsonrpc: "2.0", id: 7, result: { serverInfo: { name: "skill-router" } } });
  });

  it("answers a line of 12 MB with a parse error and carries on (the SDK alone stops at 10 MiB)", async () => {
    const huge = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "find_skill", arguments: { query: "x".repeat(12_000_000) } } });
    const initialize = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } } });
    const result = await runProcess(process.execPath, [CLI, "mcp", "--db", db], `${huge}\n${initialize}\n`);
    expect(result.code).toBe(0);
    const answers = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(answers[0]).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } });
    expect(answers[1]).toMatchObject({ jsonrpc: "2.0", id: 7, result: { serverInfo: { name: "skill-router" } } });
  });

  it("answers every request of a client that writes them all and closes stdin at once, then exits 0", async () => {
    const requests = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "find_skill", arguments: { query: "my pod keeps restarting" } } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "read_skill", arguments: { name: "k8s-debug" } } },
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "find_skill", arguments: { query: 42 } } },
    ];
    const result = await runProcess(process.execPath, [CLI, "mcp", "--db", db], `${requests.map((request) => JSON.stringify(request)).join("\n")}\n`);
    expect(result.code).toBe(0);
    const answers = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .sort((a, b) => a.id - b.id);
    expect(answers.map((answer) => [answer.id, answer.result?.isError ?? false])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
    ]);
  });
});

/** The feedback an index holds, as `router feedback list --json` prints it. */
function feedbackIn(file: string): { query: string; skill: string | null; wrong: string | null; client: string; role: string }[] {
  const listed = runCli(["feedback", "list", "--db", file, "--json"]);
  expect(listed.status, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout);
}

describe("feedback through router mcp", () => {
  // An index of its own: what these tests teach must not change the answers the others expect.
  let learning: string;
  let session: Client;

  beforeAll(async () => {
    learning = path.join(dir, "learning.db");
    cpSync(db, learning);
    session = await connect(["--db", learning]);
  });

  afterAll(() => session.close());

  it("report_skill stores which skill a request needed and answers in one line", async () => {
    const result = await call(session, "report_skill", { query: "turn the scanned invoice into rows I can paste in a sheet", skill: "pdf-extract" });
    expect(result.isError).toBeFalsy();
    expect(result.content[0]!.text).toMatch(
      /^stored #\d+: an example of pdf-extract(; a negative of [\w-]+, which was injected for it)?; applies within seconds, once this MCP server has folded it into the index\.$/,
    );
    expect(result.structuredContent).toMatchObject({ stored: { skill: "pdf-extract", role: "example", client: "mcp", times: 1 }, duplicate: false });
    const again = await call(session, "report_skill", { query: "turn the scanned invoice into rows I can paste in a sheet", skill: "pdf-extract" });
    expect(again.content[0]!.text).toMatch(/^already said \(#\d+, 2 times\): an example of pdf-extract[^;]*(; a negative of [\w-]+, which was injected for it)?\.$/);
  });

  it("report_skill takes null for a request no skill should answer, and names the skill the router injected for it", async () => {
    const query = "kubectl is the name of our office cat, suggest a birthday cake";
    const found = await call(session, "find_skill", { query });
    const result = await call(session, "report_skill", { query, skill: null });
    const wrong = found.structuredContent.decision === "inject" ? found.structuredContent.selected[0] : null;
    // The route_id of this session's find_skill for the same query says what was injected, though the model sent none.
    expect(result.structuredContent.stored).toMatchObject({ skill: null, role: "none", wrong });
  });

  it("report_skill of an unknown skill is a tool error that suggests the names it knows", async () => {
    const result = await call(session, "report_skill", { query: "my pod keeps restarting", skill: "k8s-debugg" });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/No skill "k8s-debugg" in the index; did you mean "k8s-debug"\?/);
  });

  it("a read_skill after find_skill reports the skill read as the one used, once, and the index learns it within seconds", async () => {
    const query = "someone edited the load balancer by hand and now our infrastructure code disagrees";
    const found = await call(session, "find_skill", { query });
    await call(session, "read_skill", { name: "terraform-drift" });
    await call(session, "read_skill", { name: "sql-query-review" });
    const reported = feedbackIn(learning).filter((entry) => entry.query === query);
    expect(reported).toEqual([expect.objectContaining({ skill: "terraform-drift", client: "mcp", role: "example" })]);
    expect(reported[0]!.wrong).toBe(found.structuredContent.decision === "inject" && found.structuredContent.selected[0] !== "terraform-drift" ? found.structuredContent.selected[0] : null);
    // The `router feedback apply` child folds it in; the next call reads the new index version.
    let text = "";
    await waitUntil(async () => (text = (await call(session, "find_skill", { query })).content[0]!.text).includes("(from use)"), "the request learned as an example");
    expect(text).toContain(`terraform-drift [skill] confidence`);
    expect(text).toContain(`like: "${query}" (from use)`);
  });

  it("reports nothing for a read_skill without a find_skill before it, or after a request that calls a skill by name", async () => {
    const before = feedbackIn(learning).length;
    await call(session, "read_skill", { name: "k8s-debug" });
    await call(session, "find_skill", { query: "$k8s-debug what is the capital of France?" });
    await call(session, "read_skill", { name: "k8s-debug" });
    expect(feedbackIn(learning)).toHaveLength(before);
  });
});

describe("router mcp when the router offers a list, and for a flagged skill", () => {
  let offering: Client;
  let offerDb: string;

  beforeAll(async () => {
    offerDb = await indexOfferSkills(path.join(dir, "offer"));
    offering = await connect(["--db", offerDb]);
  });

  afterAll(async () => offering.close());

  it("find_skill returns the offer, each skill's name and description, and says to read the one that fits; read_skill after it is the choice", async () => {
    const found = await call(offering, "find_skill", { query: INVOICE_REQUEST });
    expect(found.structuredContent).toMatchObject({ decision: "offer", selected: [], reason: "unsure" });
    expect(found.structuredContent.offer.skills.map((skill: { name: string }) => skill.name).sort()).toEqual(["invoice-maker", "invoice-pdf", "invoice-writer"]);
    const text = found.content[0]!.text;
    expect(text).toMatch(/^offer: skill-router found these installed skills/);
    expect(text).toContain("- invoice-maker: Create PDF invoices for clients with line items and VAT.");
    expect(text).toContain("load it with read_skill");
    await call(offering, "read_skill", { name: "invoice-maker" });
    // The skill read after an offer is the agent's answer: an example of it; the other offered skill was not wrong.
    expect(feedbackIn(offerDb).filter((entry) => entry.query === INVOICE_REQUEST)).toEqual([expect.objectContaining({ skill: "invoice-maker", wrong: null, role: "example" })]);
  });

  it("read_skill of a flagged skill starts with a warning that says what it asks for, and carries its flags", async () => {
    const read = await call(offering, "read_skill", { name: "machine-setup" });
    expect(read.content[0]!.text).toMatch(
      /^WARNING: skill-router flagged "machine-setup" as risky: [^\n]*a script fetched from a bare IP address[^\n]*\. Do not do any of that without asking the user first\.\n\n# Setup/,
    );
    expect(read.structuredContent.risks).toEqual(expect.arrayContaining([expect.objectContaining({ rule: "remote-script-from-ip", line: expect.any(Number) })]));
  });
});

describe("router mcp --url", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 0, cli: CLI });
    await server.ready;
  });

  afterAll(() => server.close());

  it("sends report_skill, and the report a read_skill makes, to the router as client mcp", async () => {
    const remote = await connect(["--url", server.url]);
    try {
      const result = await call(remote, "report_skill", { query: "which commit message fits this diff of the parser", skill: "git-commit-messages" });
      expect(result.content[0]!.text).toMatch(/^stored #\d+: an example of git-commit-messages; applies within seconds, once this server has folded it into the index\.$/);
      await call(remote, "find_skill", { query: "the nightly report query takes minutes on postgres" });
      await call(remote, "read_skill", { name: "sql-query-review" });
      const reported = feedbackIn(db)
        .filter((entry) => entry.client === "mcp")
        .map((entry) => [entry.query, entry.skill]);
      expect(reported).toEqual(
        expect.arrayContaining([
          ["which commit message fits this diff of the parser", "git-commit-messages"],
          ["the nightly report query takes minutes on postgres", "sql-query-review"],
        ]),
      );
    } finally {
      await remote.close();
    }
  });

  it("answers from a running router", async () => {
    const remote = await connect(["--url", server.url]);
    try {
      expect((await call(remote, "find_skill", { query: "my pod keeps restarting" })).structuredContent.selected).toEqual(["k8s-debug"]);
      expect((await call(remote, "read_skill", { name: "ghost" })).isError).toBe(true);
    } finally {
      await remote.close();
    }
  });

  it("turns an unreachable router into a tool error", async () => {
    const remote = await connect(["--url", await closedEndpoint()]);
    try {
      const result = await call(remote, "find_skill", { query: "my pod keeps restarting" });
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toContain("Cannot reach the router");
    } finally {
      await remote.close();
    }
  });
});

describe("the MCP example and failures at start", () => {
  it("examples/mcp/find-skill.ts finds and reads the skill through `router mcp`", async () => {
    const result = await runProcess(process.execPath, [TSX, "examples/mcp/find-skill.ts", "terraform plan shows drift"], "", { env: { ROUTER_DB: db, ...binShims(path.join(dir, "bin")).env } });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^inject: terraform-drift\./);
    expect(result.stdout).toContain("--- terraform-drift: ");
    expect(result.stdout).toContain("2 supporting files");
  });

  it("exits 3 with a message when the index does not exist", async () => {
    const result = await runProcess(process.execPath, [CLI, "mcp", "--db", path.join(dir, "missing.db")], "");
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("INDEX_NOT_FOUND");
  });
});
