import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FLAGGING_MODULES, riskRulesVersion } from "../../src/skills/risk-rules-version.js";

const SKILLS = path.resolve("src/skills");

/** The modules of ours a module imports values from (type imports are erased: they cannot change a flag), relative to src/skills. */
function valueImports(module: string): string[] {
  const source = readFileSync(path.join(SKILLS, `${module}.ts`), "utf8");
  return [...source.matchAll(/^import\s+(?!type\s)[^;]*?\sfrom\s+"(\.{1,2}\/[^"]+)\.js";/gm)].map((match) => path.relative(SKILLS, path.resolve(SKILLS, match[1]!)));
}

describe("the risk rules' version", () => {
  it("hashes the code of risk-scan and of every module of ours it imports, so an edit to any of them reads every skill again", () => {
    const reached = new Set<string>();
    const pending = ["risk-scan"];
    for (let module = pending.pop(); module !== undefined; module = pending.pop()) {
      if (reached.has(module)) continue;
      reached.add(module);
      pending.push(...valueImports(module));
    }
    expect([...reached].sort()).toEqual([...FLAGGING_MODULES].sort());

    const hash = createHash("sha256");
    for (const module of FLAGGING_MODULES) hash.update(readFileSync(path.join(SKILLS, `${module}.ts`))).update("\u0000");
    expect(riskRulesVersion()).toBe(hash.digest("hex").slice(0, 16));
  });
});
