import { renameSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { openIndexForRead } from "../../src/store/database.js";
import { readMeta } from "../../src/store/index-meta.js";
import { getSkill, listSkills } from "../../src/store/skill-rows.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";

function storedNames(db: string): string[] {
  const index = openIndexForRead(db);
  try {
    return listSkills(index).map((skill) => skill.name);
  } finally {
    index.close();
  }
}

describe("runIndex", () => {
  it("adds, then skips unchanged, updates edited, removes deleted skills", async () => {
    const root = tempDir();
    const db = path.join(tempDir(), "router.db");
    writeAgentSkill(root, "alpha");
    writeAgentSkill(root, "beta");
    writeAgentSkill(root, "gamma");

    const first = await runIndex({ paths: [root], db });
    expect([first.added.sort(), first.updated, first.unchanged, first.removed, first.indexVersion]).toEqual([["alpha", "beta", "gamma"], [], 0, [], 1]);

    const second = await runIndex({ paths: [root], db });
    expect([second.added, second.updated, second.unchanged, second.removed, second.indexVersion]).toEqual([[], [], 3, [], 1]);

    writeAgentSkill(root, "beta", { description: "Now does something else entirely." });
    rmSync(path.join(root, "gamma"), { recursive: true });
    renameSync(path.join(root, "alpha"), path.join(root, "alpha-moved"));
    const third = await runIndex({ paths: [root], db });
    expect([third.added, third.updated.sort(), third.unchanged, third.removed, third.indexVersion]).toEqual([[], ["alpha", "beta"], 0, ["gamma"], 2]);

    const index = openIndexForRead(db);
    const beta = getSkill(index, "beta")!;
    expect(beta.description).toBe("Now does something else entirely.");
    expect(beta.tokens).toBeGreaterThan(0);
    expect(getSkill(index, "alpha")!.sourcePath).toBe(path.join(root, "alpha-moved", "SKILL.md"));
    expect(readMeta(index).roots).toEqual([root]);
    index.close();
  });

  it("keeps the id stable and replaces a skill whose kind changed under the same name", async () => {
    const root = tempDir();
    const db = path.join(tempDir(), "router.db");
    writeAgentSkill(root, "lookup");
    await runIndex({ paths: [root], db });
    rmSync(path.join(root, "lookup"), { recursive: true });
    writeFile(path.join(root, "tools.json"), JSON.stringify({ name: "lookup", description: "Now a tool", parameters: {} }));
    const summary = await runIndex({ paths: [root], db });
    expect(summary.updated).toEqual(["lookup"]);
    const index = openIndexForRead(db);
    expect(getSkill(index, "lookup")!.kind).toBe("tool");
    index.close();
  });

  it("refuses missing and empty paths, and leaves the index alone when nothing is found", async () => {
    const root = tempDir();
    const db = path.join(tempDir(), "router.db");
    writeAgentSkill(root, "alpha");
    await runIndex({ paths: [root], db });

    await expect(runIndex({ paths: [], db })).rejects.toMatchObject({ code: "PATHS_MISSING" });
    await expect(runIndex({ paths: [""], db })).rejects.toMatchObject({ code: "PATHS_MISSING" });
    await expect(runIndex({ paths: [path.join(root, "nope")], db })).rejects.toMatchObject({ code: "PATH_NOT_FOUND" });
    const empty = tempDir();
    await expect(runIndex({ paths: [empty], db })).rejects.toMatchObject({ code: "NO_SKILLS_FOUND" });
    expect(storedNames(db)).toEqual(["alpha"]);

    const emptied = await runIndex({ paths: [empty], db, allowEmpty: true });
    expect(emptied.removed).toEqual(["alpha"]);
    expect(storedNames(db)).toEqual([]);
  });

  it("indexes the valid skills and lists every invalid one with its reason", async () => {
    const root = tempDir();
    const db = path.join(tempDir(), "router.db");
    writeAgentSkill(root, "good");
    writeFile(path.join(root, "bad-yaml", "SKILL.md"), "---\nname: [oops\n---\n");
    writeFile(path.join(root, "no-desc", "SKILL.md"), "---\nname: no-desc\n---\n");
    const summary = await runIndex({ paths: [root], db });
    expect(summary.added).toEqual(["good"]);
    expect(summary.invalid.map((problem) => path.basename(path.dirname(problem.file)))).toEqual(["bad-yaml", "no-desc"]);
  });
});
