import { describe, expect, it } from "vitest";
import type { ParseResult, SkillDocument, SkillParser } from "../../src/skills/types.js";

export interface ParserConformanceCase {
  parser: SkillParser;
  /** A file name the parser must accept. */
  fileName: string;
  /** A document holding valid skills, and the names they must get. */
  valid: { document: SkillDocument; names: string[] };
  /** Documents that must be rejected, strict or not, each with the reason it must give. */
  invalid: { label: string; document: SkillDocument; reason: RegExp }[];
  /**
   * Documents that break the format's rules but that agents load: indexed under `name` with a warning that
   * names the rule, and refused with `strictReason` when strict.
   */
  lenient?: { label: string; document: SkillDocument; name: string; warning: RegExp; strictReason: RegExp }[];
}

/** The suite every skill parser passes (like Hono's shared router suite): one contract, many formats. */
export function describeParserConformance(suite: ParserConformanceCase): void {
  const { parser } = suite;
  describe(`${parser.name} parser conformance`, () => {
    it("accepts its own file name and not a random one", () => {
      expect(parser.accepts(suite.fileName)).toBe(true);
      expect(parser.accepts("README.txt")).toBe(false);
    });

    it("parses a valid document into complete skills", () => {
      const result = parser.parse(suite.valid.document);
      expect(result.problems).toEqual([]);
      expect(result.unrecognised).toBeUndefined();
      expect(result.skills.map((skill) => skill.name)).toEqual(suite.valid.names);
      for (const skill of result.skills) {
        expect(skill.name.length).toBeGreaterThan(0);
        expect(typeof skill.description).toBe("string");
        expect(skill.injection.trim().length).toBeGreaterThan(0);
        expect(skill.sourcePath.startsWith(suite.valid.document.path)).toBe(true);
        expect(["skill", "tool"]).toContain(skill.kind);
        expect(Array.isArray(skill.warnings)).toBe(true);
      }
    });

    it("gives the same answer every time", () => {
      expect(parser.parse(suite.valid.document)).toEqual(parser.parse(suite.valid.document));
    });

    for (const { label, document, reason } of suite.invalid) {
      it(`reports ${label} with the file and the reason, strict or not`, () => {
        for (const strict of [false, true]) expectRefused(parser.parse(document, { strict }), document, reason);
      });
    }

    for (const { label, document, name, warning, strictReason } of suite.lenient ?? []) {
      it(`indexes ${label} with a warning, and refuses it when strict`, () => {
        const result = parser.parse(document);
        expect(result.problems).toEqual([]);
        expect(result.skills.map((skill) => skill.name)).toEqual([name]);
        expect(result.skills[0]!.warnings.join("\n")).toMatch(warning);
        expectRefused(parser.parse(document, { strict: true }), document, strictReason);
      });
    }

    it("never throws on garbage, and always says what it made of it", () => {
      for (const text of ["", "\u0000\u0001\u0002", "{".repeat(10_000), "---\n---\n", "x".repeat(100_000), "[1, 2, 3]", "null"]) {
        const result = parser.parse({ ...suite.valid.document, text });
        const outcomes = result.skills.length + result.problems.length + (result.unrecognised === undefined ? 0 : 1);
        expect(outcomes, JSON.stringify(text.slice(0, 20))).toBeGreaterThan(0);
        for (const skill of result.skills) expect(skill.name.length).toBeGreaterThan(0);
      }
    });
  });
}

function expectRefused(result: ParseResult, document: SkillDocument, reason: RegExp): void {
  expect(result.skills).toEqual([]);
  expect(result.problems.length).toBeGreaterThan(0);
  for (const problem of result.problems) expect(problem.file.startsWith(document.path)).toBe(true);
  expect(result.problems.map((problem) => problem.reason).join("\n")).toMatch(reason);
}

export function doc(path: string, text: string, files: string[] = []): SkillDocument {
  const parts = path.split("/");
  return { path, text, folderName: parts[parts.length - 2] ?? "", files };
}
