import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { jsonLongerThan } from "../../src/skills/json-length.js";
import { MAX_FRONTMATTER_BYTES, MAX_MANIFEST_FILE_BYTES } from "../../src/skills/limits.js";
import { loadSkills } from "../../src/skills/load-skills.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";
import { writeZip } from "../helpers/zip.js";

const names = (result: Awaited<ReturnType<typeof loadSkills>>) => result.skills.map((skill) => skill.name);
const mkfifo = (file: string): string => {
  mkdirSync(path.dirname(file), { recursive: true });
  execFileSync("mkfifo", [file]);
  return file;
};
/** A tool whose parameters nest `depth` levels: {"type":"object","properties":{"a":{...}}}. */
const deepTool = (depth: number): string => `{"name":"deep","description":"d","parameters":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`;

describe("hostile skill files", () => {
  it("reports tool JSON nested past the limit without reading it, and indexes the rest", async () => {
    const root = tempDir();
    writeAgentSkill(root, "good");
    writeFile(path.join(root, "tools", "deep-5000.json"), deepTool(5_000));
    writeFile(path.join(root, "tools", "deep-1000.json"), `[${deepTool(1_000)}]`);
    writeFile(path.join(root, "tools", "fine.json"), deepTool(40));
    const result = await loadSkills([root]);
    expect(names(result)).toEqual(["good", "deep"]);
    expect(result.invalid).toEqual([
      { file: path.join(root, "tools", "deep-1000.json"), reason: "JSON nests deeper than 64 levels (the limit for tool definitions); not read" },
      { file: path.join(root, "tools", "deep-5000.json"), reason: "JSON nests deeper than 64 levels (the limit for tool definitions); not read" },
    ]);
  });

  it("counts brackets inside JSON strings as text, not nesting", async () => {
    const root = tempDir();
    writeFile(path.join(root, "t.json"), JSON.stringify({ name: "brackets", description: `${"[{".repeat(500)} \\" [`, parameters: {} }));
    expect(names(await loadSkills([root]))).toEqual(["brackets"]);
  });

  it("reports a folder named SKILL.md, a FIFO named SKILL.md or tools.json, and never opens a FIFO", async () => {
    const root = tempDir();
    writeAgentSkill(root, "good", { files: {} });
    mkdirSync(path.join(root, "folder-skill", "SKILL.md"), { recursive: true });
    mkfifo(path.join(root, "fifo-skill", "SKILL.md"));
    mkfifo(path.join(root, "tools", "pipe.json"));
    mkfifo(path.join(root, "good", "router-manifest.yaml"));
    const result = await loadSkills([root]);
    expect(names(result)).toEqual(["good"]);
    expect(result.invalid).toEqual([
      { file: path.join(root, "fifo-skill", "SKILL.md"), reason: "SKILL.md is a FIFO (named pipe), not a file; not read as a skill" },
      { file: path.join(root, "folder-skill", "SKILL.md"), reason: "SKILL.md is a folder, not a file; not read as a skill" },
      { file: path.join(root, "tools", "pipe.json"), reason: "a FIFO (named pipe), not a regular file; not read" },
    ]);
    expect(result.warnings).toContainEqual({ file: path.join(root, "good", "SKILL.md"), reason: "router-manifest.yaml is not a regular file; ignored" });
  });

  it("reports a FIFO given as the root itself", async () => {
    const fifo = mkfifo(path.join(tempDir(), "x", "SKILL.md"));
    expect((await loadSkills([fifo])).invalid).toEqual([{ file: fifo, reason: "a FIFO (named pipe), not a regular file; not read" }]);
  });

  it("reports a zip that holds only a zip, naming the inner archive", async () => {
    const root = tempDir();
    writeAgentSkill(root, "good");
    await writeZip(path.join(root, "outer.zip"), { "inner.zip": "PK not opened" });
    const result = await loadSkills([root]);
    expect(names(result)).toEqual(["good"]);
    expect(result.invalid).toEqual([{ file: path.join(root, "outer.zip"), reason: "zip archive holds no SKILL.md or skill.md; archives inside an archive are not opened (inner.zip)" }]);
  });

  it("ignores a manifest file nested past the limit instead of overflowing on it", async () => {
    const root = tempDir();
    writeAgentSkill(root, "good", { files: { "router-manifest.yaml": `queries: ${"[".repeat(20_000)}` } });
    const result = await loadSkills([root]);
    expect(names(result)).toEqual(["good"]);
    expect(result.warnings).toContainEqual({ file: path.join(root, "good", "router-manifest.yaml"), reason: "router-manifest.yaml: nests deeper than 64 levels; ignored" });
  });

  it("refuses frontmatter over its size limit before YAML reads it, and reads YAML-breaking frontmatter under it", async () => {
    const root = tempDir();
    writeAgentSkill(root, "good");
    // Every ': ' is an error to a YAML parser: a 1 MiB block of them took 15 s to refuse and recover.
    const colons = (bytes: number) => "a: b ".repeat(Math.floor(bytes / 5));
    const huge = writeFile(path.join(root, "huge", "SKILL.md"), `---\nname: huge\ndescription: ${colons(1024 * 1024 - 100)}\n---\nbody\n`);
    writeFile(path.join(root, "near", "SKILL.md"), `---\nname: near\ndescription: Use when: ${colons(MAX_FRONTMATTER_BYTES - 100)}\n---\nbody\n`);
    const result = await loadSkills([root]);
    expect(names(result)).toEqual(["good", "near"]);
    expect(result.invalid).toEqual([{ file: huge, reason: "YAML frontmatter is 1.05 MB, the limit is 32.8 kB" }]);
    expect(result.skills[1]!.description).toMatch(/^Use when: a: b a: b/);
  });

  it("refuses one tool whose definition is larger than a skill file may be, and indexes the tools beside it", async () => {
    const root = tempDir();
    const small = { name: "small", description: "A small tool.", parameters: { type: "object", properties: {} } };
    const wide = {
      name: "wide",
      description: "A tool with a huge schema.",
      parameters: { type: "object", properties: Object.fromEntries(Array.from({ length: 20_000 }, (_, n) => [`p${n}`, { type: "string", description: "x".repeat(60) }])) },
    };
    // Under the limit as compact JSON, over it as injected (indented, one value a line).
    const indented = {
      name: "indented",
      description: "A tool with a long enum.",
      parameters: { type: "object", properties: { level: { type: "integer", enum: Array.from({ length: 400_000 }, () => 1) } } },
    };
    const file = writeFile(path.join(root, "tools.json"), JSON.stringify([small, wide, indented]));
    const result = await loadSkills([root]);
    expect(names(result)).toEqual(["small"]);
    const reason = "tool definition is over 1.05 MB as injected, the limit for one tool";
    expect(result.invalid).toEqual([
      { file: `${file}#/1`, reason },
      { file: `${file}#/2`, reason },
    ]);
  });

  it("property: the bounded length check agrees with JSON.stringify, exactly when nothing needs escaping", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.nat({ max: 400 }), (value, limit) => {
        const length = JSON.stringify(value).length;
        if (jsonLongerThan(value, limit)) expect(length).toBeGreaterThan(limit);
        if (!/\\/.test(JSON.stringify(value))) expect(jsonLongerThan(value, limit)).toBe(length > limit);
      }),
      { numRuns: 500, seed: 31 },
    );
  });

  it("ignores a manifest file over its size limit, on disk and inside a zip, with a warning", async () => {
    const root = tempDir();
    // One byte over: a valid manifest, padded with a comment line.
    const manifest = `queries:\n${"  - deploy a pod\n".repeat(1_000)}#`.padEnd(MAX_MANIFEST_FILE_BYTES + 1, "#");
    const skill = writeAgentSkill(root, "on-disk", { files: { "router-manifest.yaml": manifest } });
    await writeZip(path.join(root, "zipped.zip"), { "zipped/SKILL.md": "---\nname: zipped\ndescription: A zipped skill.\n---\nbody\n", "zipped/router-manifest.yaml": manifest });
    const result = await loadSkills([root]);
    expect(names(result)).toEqual(["on-disk", "zipped"]);
    expect(result.skills.map((loaded) => loaded.metadata.manifestFile)).toEqual([undefined, undefined]);
    expect(result.warnings).toEqual([
      { file: skill, reason: "router-manifest.yaml is 262.145 kB, the limit is 262.144 kB; ignored" },
      { file: `${path.join(root, "zipped.zip")}!/zipped/SKILL.md`, reason: "router-manifest.yaml is 262.145 kB, the limit is 262.144 kB; ignored" },
    ]);
  });
});
