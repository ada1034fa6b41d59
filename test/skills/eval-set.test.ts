import { describe, expect, it } from "vitest";
import { parseEvalSet } from "../../src/eval/eval-set.js";
import { evalSetParser } from "../../src/skills/eval-set.js";
import { describeParserConformance, doc } from "./parser-conformance.js";

const SET = {
  name: "tiny",
  skills: [
    { name: "Weather", description: "Weather forecasts", queries: ["will it rain tomorrow", "forecast for Paris"] },
    { name: "calc.add", description: "Adds numbers", parameters: { type: "dict", properties: { a: { type: "integer" } } } },
  ],
  cases: [{ query: "rain in Rome?", expected: "Weather" }],
};

describeParserConformance({
  parser: evalSetParser,
  fileName: "metatool.json",
  valid: { document: doc("/e/tiny.json", JSON.stringify(SET)), names: ["Weather", "calc.add"] },
  invalid: [
    { label: "malformed JSON", document: doc("/e/tiny.json", "{"), reason: /malformed JSON/ },
    { label: "a skill without a description", document: doc("/e/tiny.json", JSON.stringify({ skills: [{ name: "x" }], cases: [] })), reason: /missing required field 'description'/ },
  ],
});

describe("eval-set parser", () => {
  it("keeps the example queries and the parameters", () => {
    const [weather, add] = evalSetParser.parse(doc("/e/tiny.json", JSON.stringify(SET))).skills;
    expect(weather!.metadata.exampleQueries).toEqual(["will it rain tomorrow", "forecast for Paris"]);
    expect(weather!.kind).toBe("skill");
    expect(add!.kind).toBe("tool");
    expect(JSON.parse(add!.injection)).toEqual({ name: "calc.add", description: "Adds numbers", parameters: SET.skills[1]!.parameters });
  });

  it("leaves files without skills and cases to other parsers", () => {
    expect(evalSetParser.parse(doc("/e/x.json", JSON.stringify({ tools: [] }))).unrecognised).toBe("not an evaluation set");
  });

  it("reports each bad skill with its place and reason, and indexes the others; `router eval`'s reader refuses the file", () => {
    const set = {
      skills: [
        { name: "get weather", description: "Weather forecasts" },
        { name: "lookup", description: "Looks things up", queries: ["find it", 3] },
        { name: "add", description: "Adds numbers", parameters: "a, b" },
        "search",
        { name: "ok", description: "A fine skill" },
      ],
      cases: [],
    };
    const result = evalSetParser.parse(doc("/e/set.json", JSON.stringify(set)));
    expect(result.skills.map((skill) => skill.name)).toEqual(["ok"]);
    expect(result.problems).toEqual([
      { file: "/e/set.json#/skills/0", reason: `'name' "get weather" contains whitespace or control characters` },
      { file: "/e/set.json#/skills/1", reason: "'queries' must be a list of strings" },
      { file: "/e/set.json#/skills/2", reason: "'parameters' must be a JSON object (a JSON schema)" },
      { file: "/e/set.json#/skills/3", reason: "skill entry is not a JSON object" },
    ]);
    expect(() => parseEvalSet(set, "set.json")).toThrow(`set.json is not an eval set: skills.0.name: 'name' "get weather" contains whitespace or control characters`);
  });
});
