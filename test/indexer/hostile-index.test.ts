import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { createEmbedder } from "../../src/models/create-embedder.js";
import { MAX_FRONTMATTER_BYTES, MAX_TOOL_DEFINITION_BYTES } from "../../src/skills/limits.js";
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
  fc.record({ kind: fc.constant("long-run" as const), char: fc.constantFrom("x", "中", "😀", " ", "9", "```\n", "使用：\n", ": "), bytes: fc.integer({ min: 10_000, max: 300_000 }) }),
  // Every ': ' is a YAML error: read key by key under the size limit, refused unparsed over it.
  fc.record({ kind: fc.constant("yaml-breaking" as const), bytes: fc.oneof(fc.integer({ min: 100, max: MAX_FRONTMATTER_BYTES - 100 }), fc.integer({ min: MAX_FRONTMATTER_BYTES + 1, max: 600_000 })) }),
  fc.record({ kind: fc.constant("deep-json" as const), depth: fc.integer({ min: 65, max: 20_000 }) }),
  fc.record({ kind: fc.constant("deep-yaml" as const), depth: fc.integer({ min: 65, max: 20_000 }) }),
  fc.record({ kind: fc.constantFrom("fifo" as const, "folder" as const, "binary" as const, "zip-in-zip" as const, "fifo-manifest" as const, "huge-tool" as const) }),
);
type HostileCase = typeof hostileCase extends fc.Arbitrary<infer T> ? T : never;
const EVERY_KIND: HostileCase[] = [
  { kind: "long-run", char: "x", bytes: 300_000 },
  { kind: "long-run", char: "```\n", bytes: 300_000 },
  { kind: "yaml-breaking", bytes: MAX_FRONTMATTER_BYTES - 100 },
  { kind: "yaml-breaking", bytes: 600_000 },
  { kind: "deep-json", depth: 20_000 },
  { kind: "deep-yaml", depth: 20_000 },
  ...(["fifo", "folder", "binary", "zip-in-zip", "fifo-manifest", "huge-tool"] as const).map((kind) => ({ kind })),
];

/** Writes one case under `folder`; returns the skills it must index, and the files it must report. */
async function writeCase(root: string, folderName: string, item: HostileCase): Promise<{ good: string } | { bad: string } | { good: string; bad: string }> {
  const folder = path.join(root, folderName);
  switch (item.kind) {
    case "long-run":
      // Within the size limits a long unbroken body is a valid skill: its token count must not stall the run.
      writeAgentSkill(root, folderName, { body: item.char.repeat(Math.floor(item.bytes / Buffer.byteLength(item.char))) });
      return { good: folderName };
    case "yaml-breaking": {
      const file = writeFile(path.join(folder, "SKILL.md"), `---\nname: ${folderName}\ndescription: Use when: ${"a: b ".repeat(Math.floor(item.bytes / 5))}\n---\nbody\n`);
      return item.bytes > MAX_FRONTMATTER_BYTES ? { bad: file } : { good: folderName };
    }
    case "fifo-manifest":
      // A FIFO where the hand-written manifest goes: the skill is indexed, the FIFO never opened.
      writeAgentSkill(root, folderName);
      execFileSync("mkfifo", [path.join(folder, "router-manifest.yaml")]);
      return { good: folderName };
    case "huge-tool": {
      const huge = { name: `${folderName}-huge`, description: "d", parameters: { type: "object", description: "x".repeat(MAX_TOOL_DEFINITION_BYTES) } };
      const file = writeFile(path.join(folder, "tools.json"), JSON.stringify([{ name: folderName, description: "A small tool.", parameters: {} }, huge]));
      return { good: folderName, bad: `${file}#/1` };
    }
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
  it("completes, reports each bad file and indexes each good skill", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileCase, { minLength: 1, maxLength: 4 }), async (cases) => {
        const root = tempDir();
        writeAgentSkill(root, "good-one");
        const good = ["good-one"];
        const bad: string[] = [];
        for (const [index, item] of cases.entries()) {
          const outcome = await writeCase(root, `case-${index}`, item);
          if ("good" in outcome) good.push(outcome.good);
          if ("bad" in outcome) bad.push(outcome.bad);
        }
        const summary = await runIndex({ paths: [root], db: path.join(tempDir(), "router.db"), embedder });
        expect(summary.added.sort()).toEqual(good.sort());
        expect(summary.invalid.map((problem) => problem.file).sort()).toEqual(bad.sort());
      }),
      // The first run holds one of every kind at its most hostile; the random runs mix them.
      { numRuns: 10, seed: 1_216, examples: [[EVERY_KIND]] },
    );
    // The timeout guards against a stall (a hostile file once held a run for minutes); bench/hostile.ts measures speed.
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
