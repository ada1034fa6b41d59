import { describe, expect, it } from "vitest";
import type { SkillRecord } from "../../src/store/records.js";
import { skillTextHash } from "../../src/store/skill-text.js";

const skill: SkillRecord = {
  id: "0123456789abcdef",
  name: "release-notes",
  kind: "skill",
  format: "agent-skill",
  description: "Drafts release notes from merged pull requests.",
  body: "# Release notes\n\nCollect the merged pull requests, then group them.",
  injection: "# Release notes\n\nCollect the merged pull requests, then group them.",
  sourcePath: "/skills/release-notes/SKILL.md",
  root: "/skills",
  relativePath: "release-notes/SKILL.md",
  contentHash: "a".repeat(64),
  tokens: 20,
  metadata: {},
  warnings: [],
  risks: [],
};

const tool: SkillRecord = {
  ...skill,
  name: "weather__get_forecast",
  kind: "tool",
  format: "mcp-tool",
  description: "The forecast for a city.",
  body: '{"name":"get_forecast"}',
  metadata: { toolName: "get_forecast", server: "weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
};

describe("the hash of a skill's own text, the key of its paid manifests", () => {
  it("changes with what the expansion prompt shows of the skill: name, kind, description, body, a tool's parameters and its own name", () => {
    const changed = [
      { ...skill, name: "release-digest" },
      { ...skill, kind: "tool" as const },
      { ...skill, description: "Drafts a changelog from merged pull requests." },
      { ...skill, body: `${skill.body}\n\nThen credit each author.` },
    ];
    for (const other of changed) expect(skillTextHash(other)).not.toBe(skillTextHash(skill));
    expect(skillTextHash({ ...tool, metadata: { ...tool.metadata, parameters: { type: "object", properties: { town: { type: "string" } } } } })).not.toBe(skillTextHash(tool));
    expect(skillTextHash({ ...tool, metadata: { ...tool.metadata, toolName: "forecast" } })).not.toBe(skillTextHash(tool));
  });

  it("stays the same whatever the router derives: flags, format, injection, a manifest file, example queries, the explicit-only reason, line endings", () => {
    const same: SkillRecord[] = [
      { ...skill, risks: [{ rule: "reverse-shell", line: 3, excerpt: "bash -i" }], contentHash: "b".repeat(64) },
      { ...skill, format: "skill-md", injection: "Skill folder: /elsewhere\n\n# Release notes" },
      {
        ...skill,
        metadata: { manifestFile: { file: "router-manifest.yaml", content: { queries: ["notes please"] } }, exampleQueries: ["write release notes"], explicitOnly: "its frontmatter says so" },
      },
      { ...skill, body: "# Release notes\r\n\r\nCollect the merged pull requests, then group them." },
    ];
    for (const other of same) expect(skillTextHash(other)).toBe(skillTextHash(skill));
    // A tool's body (its definition as JSON) is not what the prompt shows: its parameters are.
    expect(skillTextHash({ ...tool, body: '{"name":"get_forecast","annotations":{}}', metadata: { ...tool.metadata, server: "other" } })).toBe(skillTextHash(tool));
  });
});
