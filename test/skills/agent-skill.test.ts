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
    { label: "an over-long name", document: doc("/s/a/SKILL.md", `---\nname: ${"a".repeat(65)}\ndescription: x\n---\n`), reason: /65 characters, the limit is 64/ },
    { label: "an over-long description", document: doc("/s/a/SKILL.md", `---\nname: a\ndescription: ${"d".repeat(1025)}\n---\n`), reason: /1025 characters, the limit is 1024/ },
    { label: "a name with capitals or spaces", document: doc("/s/a/SKILL.md", "---\nname: My Skill\ndescription: x\n---\n"), reason: /lowercase letters/ },
    { label: "a name with a double hyphen", document: doc("/s/a/SKILL.md", "---\nname: a--b\ndescription: x\n---\n"), reason: /single hyphens/ },
    { label: "a frontmatter that is a list", document: doc("/s/a/SKILL.md", "---\n- a\n- b\n---\n"), reason: /not a YAML mapping/ },
    { label: "duplicate YAML keys", document: doc("/s/a/SKILL.md", "---\nname: a\nname: b\ndescription: x\n---\n"), reason: /malformed YAML/ },
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
    expect(skill!.injection).toContain("Supporting files (relative to /skills/pdf-tools):\n- scripts/extract.py");
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

  it("accepts allowed-tools as a YAML list too", () => {
    const result = agentSkillParser.parse(doc("/s/a/SKILL.md", "---\nname: a\ndescription: x\nallowed-tools: [Read, Grep]\n---\n"));
    expect(result.skills[0]!.metadata.allowedTools).toEqual(["Read", "Grep"]);
  });
});
