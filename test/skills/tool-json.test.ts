import { describe, expect, it } from "vitest";
import { toolJsonParser } from "../../src/skills/tool-json.js";
import { describeParserConformance, doc } from "./parser-conformance.js";

const weather = { name: "get_weather", description: "Current weather for a city", parameters: { type: "object", properties: { city: { type: "string" } } } };
const openAi = (fn: object) => ({ type: "function", function: fn });

describeParserConformance({
  parser: toolJsonParser,
  fileName: "tools.json",
  valid: { document: doc("/t/tools.json", JSON.stringify([openAi(weather), openAi({ ...weather, name: "get_forecast" })])), names: ["get_weather", "get_forecast"] },
  invalid: [
    { label: "malformed JSON", document: doc("/t/tools.json", '{"tools": [ {"name": '), reason: /malformed JSON/ },
    { label: "a tool without a name", document: doc("/t/tools.json", JSON.stringify({ tools: [{ description: "x", inputSchema: {} }] })), reason: /missing required field 'name'/ },
    { label: "an over-long description", document: doc("/t/tools.json", JSON.stringify(openAi({ ...weather, description: "d".repeat(16_385) }))), reason: /the limit is 16384/ },
    { label: "parameters that are not an object", document: doc("/t/tools.json", JSON.stringify({ name: "x", description: "y", parameters: "oops" })), reason: /must be a JSON object/ },
    { label: "a name with spaces", document: doc("/t/tools.json", JSON.stringify([openAi({ ...weather, name: "get weather" })])), reason: /whitespace/ },
  ],
});

describe("tool-json parser", () => {
  const names = (value: unknown, path = "/t/github.json") => toolJsonParser.parse(doc(path, JSON.stringify(value))).skills.map((skill) => [skill.name, skill.format, skill.kind]);

  it("reads a single OpenAI function and keeps the definition as the injection", () => {
    const [skill] = toolJsonParser.parse(doc("/t/one.json", JSON.stringify(openAi(weather)))).skills;
    expect([skill!.name, skill!.format, skill!.kind]).toEqual(["get_weather", "openai-function", "tool"]);
    expect(JSON.parse(skill!.injection)).toEqual(openAi(weather));
    expect(skill!.metadata).toEqual({ toolName: "get_weather", parameters: weather.parameters });
    expect(skill!.sourcePath).toBe("/t/one.json#");
  });

  it("reads bare functions, single and in arrays", () => {
    expect(names(weather)).toEqual([["get_weather", "bare-function", "tool"]]);
    expect(names([weather, { ...weather, name: "b" }])).toEqual([
      ["get_weather", "bare-function", "tool"],
      ["b", "bare-function", "tool"],
    ]);
  });

  it("reads MCP tools/list results, bare or as a JSON-RPC response, prefixing the server (file) name", () => {
    const tools = [{ name: "create_issue", description: "Open an issue", inputSchema: { type: "object" } }];
    expect(names({ tools })).toEqual([["github__create_issue", "mcp-tool", "tool"]]);
    expect(names({ jsonrpc: "2.0", id: 1, result: { tools } })).toEqual([["github__create_issue", "mcp-tool", "tool"]]);
  });

  it("reads collections of MCP servers, naming each tool after its server", () => {
    const collection = {
      servers: [
        { server: "@acme/Git-Hub", tools: [{ name: "search", description: "Search code", inputSchema: {} }] },
        { server: "slack", tools: [{ name: "search", description: "Search messages", inputSchema: {} }] },
      ],
    };
    expect(names(collection)).toEqual([
      ["acme-git-hub__search", "mcp-tool", "tool"],
      ["slack__search", "mcp-tool", "tool"],
    ]);
  });

  it("keeps a tool without a description, with a warning", () => {
    const [skill] = toolJsonParser.parse(doc("/t/s.json", JSON.stringify({ tools: [{ name: "ping", inputSchema: {} }] }))).skills;
    expect(skill!.description).toBe("");
    expect(skill!.warnings[0]).toMatch(/no description/);
  });

  it("indexes the good tools of a file and reports the bad ones by JSON pointer", () => {
    const result = toolJsonParser.parse(doc("/t/mixed.json", JSON.stringify([openAi(weather), openAi({ description: "no name" })])));
    expect(result.skills.map((skill) => skill.name)).toEqual(["get_weather"]);
    expect(result.problems).toEqual([{ file: "/t/mixed.json#/1", reason: "missing required field 'name'" }]);
  });

  it("says a JSON file is not a tool file instead of failing it", () => {
    for (const other of [{ compilerOptions: {} }, [{ name: "a", description: "an index entry" }], { name: "pkg", version: "1.0.0" }]) {
      expect(toolJsonParser.parse(doc("/t/x.json", JSON.stringify(other))).unrecognised).toBe("not a tool definition file");
    }
  });
});
