import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RISK_RULE_SPECS, SCAN_RULE_SPECS } from "../../src/skills/risk-rule-data.js";
import { RISK_MEANINGS, scanRisks } from "../../src/skills/risk-scan.js";

const SPECS = [...RISK_RULE_SPECS, ...SCAN_RULE_SPECS];
const flaggedRules = (text: string) => scanRisks(text).map((flag) => flag.rule);

// One test per example each rule carries in src/skills/risk-rule-data.ts.
describe.each(SPECS.map((spec) => [spec.id, spec] as const))("rule %s", (id, spec) => {
  it.each(spec.examples.flagged)("flags %j", (text) => {
    expect(flaggedRules(text)).toContain(id);
  });

  // A look-alike is an honest text: no rule may flag it, not only this one.
  it.each(spec.examples.notFlagged)("leaves alone %j", (text) => {
    expect(scanRisks(text)).toEqual([]);
  });
});

describe("the rules as data", () => {
  it("name each rule once, each with examples both ways", () => {
    const ids = SPECS.map((spec) => spec.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const spec of SPECS) {
      expect(spec.examples.flagged.length, spec.id).toBeGreaterThan(0);
      expect(spec.examples.notFlagged.length, spec.id).toBeGreaterThan(0);
    }
  });

  it("are listed in docs/formats.md with the meaning the agent and the user are shown", () => {
    const section = readFileSync("docs/formats.md", "utf8").split("## Risky skills")[1]!.split("\n## ")[0]!;
    const listed = Object.fromEntries([...section.matchAll(/^\| `([a-z-]+)` \| (.+?) \|$/gm)].map((row) => [row[1], row[2]]));
    expect(listed).toEqual(RISK_MEANINGS);
  });
});
