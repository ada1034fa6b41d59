import { describe, expect, it } from "vitest";
import { agentSkillParser } from "../../src/skills/agent-skill.js";
import { describeParserConformance, doc } from "./parser-conformance.js";

const VALID = `---
name: pdf-tools
description: Extract text and tables from PDF files. Use when the user mentions PDFs.
license: Apache-2.0
compatibility: Needs python3 and pdfplumber
metadata:
  author: team
  version: "1.2"
allowed-tools: Bash(python3:*) Read
---

# PDF tools

Run scripts/extract.py on the file.
`;

describeParserConformance({
  parser: agentSkillParser,
  fileName: "SKILL.md",
  valid: { document: doc("/skills/pdf-tools/SKILL.md", VALID, ["scripts/extract.py", "README.md"]), names: ["pdf-tools"] },
  invalid: [
    { label: "malformed YAML", document: doc("/s/a/SKILL.md", "---\nname: [unclosed\ndescription: x\n---\nbody"), reason: /malformed YAML/ },
    { label: "a missing frontmatter", document: doc("/s/a/SKILL.md", "# Just markdown\n"), reason: /missing YAML frontmatter/ },
    { label: "an unclosed frontmatter", document: doc("/s/a/SKILL.md", "---\nname: a\ndescription: b\n"), reason: /no closing ---/ },
    { label: "a missing name", document: doc("/s/a/SKILL.md", "---\ndescription: does things\n---\n"), reason: /missing required field 'name'/ },
    { label: "a missing description", document: doc("/s/a/SKILL.md", "---\nname: a\n---\n"), reason: /missing required field 'description'/ },
    { label: "a frontmatter that is a list", document: doc("/s/a/SKILL.md", "---\n- a\n- b\n---\n"), reason: /not a YAML mapping/ },
    { label: "an empty description", document: doc("/s/a/SKILL.md", "---\nname: a\ndescription: '  '\n---\n"), reason: /'description' is empty/ },
    {
      label: "a name with nothing to keep in a folder with nothing to keep",
      document: doc("/s/数据/SKILL.md", "---\nname: 数据分析\ndescription: x\n---\n"),
      reason: /'name' "数据分析" must be lowercase letters/,
    },
    { label: "a name that is a mapping", document: doc("/s/a/SKILL.md", "---\nname: {first: a}\ndescription: x\n---\n"), reason: /'name' must be a string/ },
    { label: "an unquoted ': ' in a flow value", document: doc("/s/a/SKILL.md", "---\nname: a\ndescription: [Use: this\n---\n"), reason: /malformed YAML/ },
    {
      label: "a frontmatter nested thousands of levels deep",
      document: doc("/s/a/SKILL.md", `---\nname: a\ndescription: x\nmetadata: ${"[".repeat(20_000)}\n---\n`),
      reason: /nests deeper than 64 levels/,
    },
  ],
  lenient: [
    {
      label: "an over-long description",
      document: doc("/s/a/SKILL.md", `---\nname: a\ndescription: ${"d".repeat(1025)}\n---\n`),
      name: "a",
      warning: /'description' is 1025 characters, over the Agent Skills limit of 1024; indexed in full/,
      strictReason: /1025 characters, the limit is 1024/,
    },
    {
      label: "an unquoted ': ' inside a value",
      document: doc("/s/a/SKILL.md", "---\nname: a\ndescription: Use this when: the user asks\n  for a report: weekly\nlicense: MIT\n---\nbody"),
      name: "a",
      warning: /not valid YAML \(Nested mappings are not allowed in compact mappings at line 2, column 14\); read one top-level key at a time; 'description' kept as plain text/,
      strictReason: /malformed YAML/,
    },
    {
      label: "a repeated YAML key",
      document: doc("/s/b/SKILL.md", "---\nname: a\nname: b\ndescription: x\n---\n"),
      name: "b",
      warning: /not valid YAML \(Map keys must be unique.*\); a repeated key keeps its last value/,
      strictReason: /malformed YAML/,
    },
    {
      label: "compatibility written as a list of mappings",
      document: doc("/s/a/SKILL.md", "---\nname: a\ndescription: x\ncompatibility:\n  - platform: macOS\n  - platform: Linux\n---\n"),
      name: "a",
      warning: /'compatibility' must be a string, got a list; kept as text/,
      strictReason: /'compatibility' must be a string/,
    },
    {
      label: "metadata written as a string",
      document: doc("/s/a/SKILL.md", "---\nname: a\ndescription: x\nmetadata: team tools\n---\n"),
      name: "a",
      warning: /'metadata' must be a mapping of string keys to string values, got a string; kept as text/,
      strictReason: /'metadata' must be a mapping/,
    },
    {
      label: "a display name",
      document: doc("/s/active-directory-attacks/SKILL.md", "---\nname: Active Directory Attacks\ndescription: x\n---\n"),
      name: "active-directory-attacks",
      warning: /'name' "Active Directory Attacks" must be lowercase letters.*; routed as "active-directory-attacks"/,
      strictReason: /lowercase letters/,
    },
    {
      label: "a name with a double hyphen",
      document: doc("/s/a/SKILL.md", "---\nname: a--b\ndescription: x\n---\n"),
      name: "a-b",
      warning: /single hyphens.*; routed as "a-b"/,
      strictReason: /single hyphens/,
    },
    {
      label: "an over-long name",
      document: doc("/s/a/SKILL.md", `---\nname: ${"a".repeat(65)}\ndescription: x\n---\n`),
      name: "a".repeat(64),
      warning: /65 characters, the limit is 64; routed as "a{64}"/,
      strictReason: /65 characters, the limit is 64/,
    },
    {
      label: "a name in another script",
      document: doc("/s/data-analysis/SKILL.md", "---\nname: 数据分析\ndescription: x\n---\n"),
      name: "data-analysis",
      warning: /'name' "数据分析" must be lowercase.*it has no letters or digits to keep, so routed as its folder "data-analysis"/,
      strictReason: /lowercase letters/,
    },
  ],
});

describe("agent-skill parser", () => {
  it("keeps the optional fields, the body and the supporting files, without reading them", () => {
    const [skill] = agentSkillParser.parse(doc("/skills/pdf-tools/SKILL.md", VALID, ["scripts/extract.py", "references/api.md", "assets/logo.png", "notes.txt"])).skills;
    expect(skill).toBeDefined();
    expect(skill!.metadata).toEqual({
      license: "Apache-2.0",
      compatibility: "Needs python3 and pdfplumber",
      metadata: { author: "team", version: "1.2" },
      allowedTools: ["Bash(python3:*)", "Read"],
      supportingFiles: ["scripts/extract.py", "references/api.md", "assets/logo.png"],
    });
    expect(skill!.body).toBe("# PDF tools\n\nRun scripts/extract.py on the file.");
    // The folder stays unnamed in what is hashed and stored; the store names it where the index is served.
    expect(skill!.injection).toContain("Supporting files (relative to the skill's folder):\n- scripts/extract.py");
    expect(skill!.injection).not.toContain("/skills/pdf-tools");
    expect(skill!.warnings).toEqual([]);
  });

  it("warns, but indexes, when the name does not match the folder", () => {
    const result = agentSkillParser.parse(doc("/skills/other-folder/SKILL.md", VALID));
    expect(result.skills).toHaveLength(1);
    expect(result.skills[0]!.warnings).toEqual(['name "pdf-tools" does not match its folder "other-folder"']);
  });

  it("reads a UTF-8 byte-order mark and CRLF line ends", () => {
    const result = agentSkillParser.parse(doc("/s/a/SKILL.md", "\uFEFF---\r\nname: a\r\ndescription: does a\r\n---\r\nbody\r\n"));
    expect(result.skills.map((skill) => [skill.name, skill.description, skill.body])).toEqual([["a", "does a", "body"]]);
  });

  it("says when neither the name nor the folder can be made into a skill name", () => {
    const result = agentSkillParser.parse(doc("/s/数据/SKILL.md", "---\nname: 数据分析\ndescription: x\n---\n"));
    expect(result.problems).toEqual([{ file: "/s/数据/SKILL.md", reason: expect.stringMatching(/; neither it nor its folder "数据" can be made into a skill name$/) }]);
  });

  it("keeps the fields it repairs, as text", () => {
    const text = "---\nname: Azure CLI\ndescription: Use when: managing Azure\ncompatibility:\n  - platform: macOS\nmetadata: [a, b]\nlicense: 2\n---\nbody";
    const [skill] = agentSkillParser.parse(doc("/s/azure-cli/SKILL.md", text)).skills;
    expect([skill!.name, skill!.description]).toEqual(["azure-cli", "Use when: managing Azure"]);
    expect(skill!.metadata).toEqual({ compatibility: '[{"platform":"macOS"}]', metadata: { value: '["a","b"]' }, license: "2" });
    expect(skill!.warnings).toHaveLength(5);
  });

  it("accepts allowed-tools as a YAML list too", () => {
    const result = agentSkillParser.parse(doc("/s/a/SKILL.md", "---\nname: a\ndescription: x\nallowed-tools: [Read, Grep]\n---\n"));
    expect(result.skills[0]!.metadata.allowedTools).toEqual(["Read", "Grep"]);
  });
});
