import { describe, expect, it } from "vitest";
import { documentHash, riskKey } from "../../src/skills/risk-key.js";
import type { ParsedSkill } from "../../src/skills/types.js";

const tool: ParsedSkill = {
  name: "weather",
  kind: "tool",
  format: "bare-function",
  description: "Current weather.",
  body: "{}",
  injection: '{"name":"weather","description":"Current weather."}',
  sourcePath: "/t/tools.json#/0",
  metadata: { toolName: "weather" },
  warnings: [],
};
const file = documentHash('[{"name":"weather","description":"Current weather."}]');

describe("the risk key", () => {
  it("changes with everything the rules read: the format, the name the skill is found by, its injection, its file", () => {
    const key = riskKey(tool, file);
    expect(riskKey({ ...tool }, file)).toBe(key);
    expect(riskKey({ ...tool, format: "openai-function" }, file)).not.toBe(key);
    expect(riskKey({ ...tool, metadata: { toolName: "forecast" } }, file)).not.toBe(key);
    expect(riskKey({ ...tool, metadata: {} }, file)).toBe(key);
    expect(riskKey({ ...tool, metadata: {}, name: "forecast" }, file)).not.toBe(key);
    expect(riskKey({ ...tool, injection: '{"name":"weather"}' }, file)).not.toBe(key);
    expect(riskKey(tool, documentHash("[]"))).not.toBe(key);
  });

  it("stays the same where the file is, so a skill that moved keeps its flags", () => {
    expect(riskKey({ ...tool, sourcePath: "/elsewhere/tools.json#/3" }, file)).toBe(riskKey(tool, file));
  });
});
