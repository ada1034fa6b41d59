import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { createEmbedder } from "../../src/models/create-embedder.js";
import type { Embedder } from "../../src/models/embedder.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";
import { writeZip } from "../helpers/zip.js";

let embedder: Embedder;
beforeAll(async () => {
  embedder = await createEmbedder();
});
afterAll(async () => {
  await embedder.close();
});

const deepTool = (depth: number): string => `{"name":"deep","description":"d","parameters":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`;

/** One hostile entry of a skills folder; `good` ones must be indexed, the others reported by file. */
const hostileCase = fc.oneof(
  fc.record({ kind: fc.constant("long-run" as const), char: fc.constantFrom("x", "中", "😀", " ", "9"), bytes: fc.integer({ min: 10_000, max: 300_000 }) }),
  fc.record({ kind: fc.constant("deep-json" as const), depth: fc.integer({ min: 65, max: 20_000 }) }),
  fc.record({ kind: fc.constant("deep-yaml" as const), depth: fc.integer({ min: 65, max: 20_000 }) }),
  fc.record({ kind: fc.constantFrom("fifo" as const, "folder" as const, "binary" as const, "zip-in-zip" as const) }),
);
type HostileCase = typeof hostileCase extends fc.Arbitrary<infer T> ? T : never;

/** Writes one case under `folder`; returns the skill name it must index, or the file it must report. */
async function writeCase(root: string, folderName: string, item: HostileCase): Promise<{ good: string } | { bad: string }> {
  const folder = path.join(root, folderName);
  switch (item.kind) {
    case "long-run":
      // Within the size limits a long unbroken body is a valid skill: its token count must not stall the run.
      writeAgentSkill(root, folderName, { body: item.char.repeat(Math.floor(item.bytes / Buffer.byteLength(item.char))) });
      return { good: folderName };
    case "deep-json":
      return { bad: writeFile(path.join(folder, "tools.json"), deepTool(item.depth)) };
    case "deep-yaml":
      return { bad: writeFile(path.join(folder, "SKILL.md"), `---\nname: x\ndescription: ${"{".repeat(item.depth)}\n---\n`) };
    case "fifo":
      mkdirSync(folder);
      execFileSync("mkfifo", [path.join(folder, "SKILL.md")]);
      return { bad: path.join(folder, "SKILL.md") };
    case "folder":
      mkdirSync(path.join(folder, "SKILL.md"), { recursive: true });
      return { bad: path.join(folder, "SKILL.md") };
    case "binary":
      return { bad: writeFile(path.join(folder, "SKILL.md"), Buffer.from([0x2d, 0x00, 0xff, 0xfe])) };
    case "zip-in-zip":
      mkdirSync(folder);
      await writeZip(path.join(folder, "outer.zip"), { "inner.zip": "x" });
      return { bad: path.join(folder, "outer.zip") };
  }
}

describe("index run over hostile skill folders", () => {
  it("completes, reports each bad file and indexes each good skill, within a time bound", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileCase, { minLength: 1, maxLength: 4 }), async (cases) => {
        const root = tempDir();
        writeAgentSkill(root, "good-one");
        const good = ["good-one"];
        const bad: string[] = [];
        for (const [index, item] of cases.entries()) {
          const outcome = await writeCase(root, `case-${index}`, item);
          if ("good" in outcome) good.push(outcome.good);
          else bad.push(outcome.bad);
        }
        const started = performance.now();
        const summary = await runIndex({ paths: [root], db: path.join(tempDir(), "router.db"), embedder });
        expect(performance.now() - started).toBeLessThan(5_000);
        expect(summary.added.sort()).toEqual(good.sort());
        expect(summary.invalid.map((problem) => problem.file).sort()).toEqual(bad.sort());
      }),
      { numRuns: 10, seed: 1_216 },
    );
  }, 60_000);

  it("refuses under strict what it otherwise indexes with a warning", async () => {
    const root = tempDir();
    writeAgentSkill(root, "good");
    const display = writeFile(path.join(root, "active-directory-attacks", "SKILL.md"), "---\nname: Active Directory Attacks\ndescription: Use when: testing AD\n---\nbody\n");
    const lenient = await runIndex({ paths: [root], db: path.join(tempDir(), "router.db"), embedder });
    expect(lenient.added.sort()).toEqual(["active-directory-attacks", "good"]);
    expect(lenient.invalid).toEqual([]);
    expect(lenient.warnings.filter((warning) => warning.file === display).map((warning) => warning.reason)).toEqual([
      expect.stringMatching(/^YAML frontmatter is not valid YAML .*'description' kept as plain text/),
      expect.stringMatching(/^'name' "Active Directory Attacks" must be lowercase .*; routed as "active-directory-attacks"$/),
    ]);
    const strict = await runIndex({ paths: [root], db: path.join(tempDir(), "router.db"), embedder, strict: true });
    expect(strict.added).toEqual(["good"]);
    expect(strict.invalid).toEqual([{ file: display, reason: expect.stringMatching(/^malformed YAML frontmatter/) }]);
  });
});
