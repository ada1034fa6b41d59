import { describe, expect, it } from "vitest";
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
});
