import { renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyserVersion } from "../../src/indexer/analyser-version.js";
import { runIndex } from "../../src/indexer/run-index.js";
import { skillTextsVersion } from "../../src/indexer/skill-texts.js";
import { readOfflineModelBuild } from "../../src/models/offline-model-files.js";
import { createUseLiteEmbedder } from "../../src/models/use-lite-embedder.js";
import { openIndexForRead, openIndexForWrite } from "../../src/store/database.js";
import { readMeta, writeMetaValue } from "../../src/store/index-meta.js";
import { readManifests } from "../../src/store/manifest-rows.js";
import { getSkill, listSkills } from "../../src/store/skill-rows.js";
import { countVectors } from "../../src/store/vectors.js";
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
    // A renamed folder is the same content at another path: its row moves, nothing is embedded again.
    expect([third.added, third.updated, third.moved, third.unchanged, third.removed, third.indexVersion]).toEqual([[], ["beta"], ["alpha"], 0, ["gamma"], 2]);
    expect(third.embedded).toBe(1);

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
    // When every file is invalid, the message itself names each one and why: it may be all a person sees.
    const broken = tempDir();
    writeFileSync(path.join(broken, "tools.json"), "{ not json");
    await expect(runIndex({ paths: [broken], db })).rejects.toMatchObject({
      code: "NO_SKILLS_FOUND",
      message: expect.stringMatching(/all 1 skill files found are invalid:\n {2}.*tools\.json: .+\nThe index was left unchanged\./),
    });
    // Nor does a folder whose only entries were skipped leave the person guessing why.
    const linksOut = tempDir();
    symlinkSync(tempDir(), path.join(linksOut, "elsewhere"));
    await expect(runIndex({ paths: [linksOut], db })).rejects.toMatchObject({
      code: "NO_SKILLS_FOUND",
      message: expect.stringMatching(/found\. Skipped:\n {2}.*elsewhere: symbolic link points outside the indexed root .+\nThe index was left unchanged\./),
    });

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

describe("runIndex manifests and vectors", () => {
  it("stores a manifest and one vector per text, re-embeds only changed skills, and drops vectors with their skill", async () => {
    const root = tempDir();
    const db = path.join(tempDir(), "router.db");
    writeAgentSkill(root, "alpha", { description: "Formats SQL queries. Use when a query is unreadable." });
    writeAgentSkill(root, "beta");
    const first = await runIndex({ paths: [root], db });
    expect([first.embedded, first.embedder]).toEqual([2, "use-lite-512"]);

    const index = openIndexForRead(db);
    const texts = index.prepare("SELECT s.name, t.kind, t.text FROM texts t JOIN skills s ON s.id = t.skill_id ORDER BY t.id").all() as { name: string; kind: string; text: string }[];
    expect(texts.filter((text) => text.name === "alpha").map((text) => [text.kind, text.text])).toContainEqual(["query", "a query is unreadable"]);
    expect(texts.filter((text) => text.kind === "description").map((text) => text.text)).toEqual(["alpha: Formats SQL queries. Use when a query is unreadable.", "beta: Helps with beta tasks."]);
    expect(countVectors(index)).toBe(texts.length);
    const manifest = readManifests(index).get(getSkill(index, "alpha")!.id)!;
    expect(manifest.source).toBe("heuristic");
    index.close();

    expect((await runIndex({ paths: [root], db })).embedded).toBe(0);
    rmSync(path.join(root, "beta"), { recursive: true });
    writeAgentSkill(root, "alpha", { description: "Formats and lints SQL." });
    expect((await runIndex({ paths: [root], db })).embedded).toBe(1);
    const after = openIndexForRead(db);
    const remaining = after.prepare("SELECT count(*) AS n FROM texts").get() as { n: number };
    expect(countVectors(after)).toBe(remaining.n);
    expect(after.prepare("SELECT DISTINCT s.name FROM texts t JOIN skills s ON s.id = t.skill_id").pluck().all()).toEqual(["alpha"]);
    after.close();
  });

  it("uses an eval set's example queries as the skills' queries", async () => {
    const dir = tempDir();
    const file = writeFile(path.join(dir, "set.json"), JSON.stringify({ skills: [{ name: "Weather", description: "Forecasts", queries: ["will it rain", "is it sunny in Rome"] }], cases: [] }));
    const db = path.join(dir, "router.db");
    await runIndex({ paths: [file], db });
    const index = openIndexForRead(db);
    const stored = readManifests(index).get(getSkill(index, "Weather")!.id)!;
    expect([stored.source, stored.manifest.queries]).toEqual(["examples", ["will it rain", "is it sunny in Rome"]]);
    index.close();
  });
});

describe("runIndex versions in the index meta", () => {
  it("records the analyser, embedder and model files versions, and embeds everything again when the embedder's code or files change", async () => {
    const root = tempDir();
    const db = path.join(tempDir(), "router.db");
    writeAgentSkill(root, "alpha");
    writeAgentSkill(root, "beta");
    await runIndex({ paths: [root], db });
    const index = openIndexForRead(db);
    expect(readMeta(index)).toMatchObject({
      embedder: "use-lite-512",
      embedderVersion: "1",
      modelFiles: readOfflineModelBuild().sha256,
      analyserVersion: analyserVersion(),
      textsVersion: skillTextsVersion(),
    });
    index.close();

    const offline = await createUseLiteEmbedder();
    try {
      expect((await runIndex({ paths: [root], db, embedder: offline })).embedded).toBe(0);
      // Other model files under the same id (a new build, another checkpoint), or embedding code that changed.
      expect((await runIndex({ paths: [root], db, embedder: { ...offline, modelFiles: "f".repeat(64) } })).embedded).toBe(2);
      expect((await runIndex({ paths: [root], db, embedder: { ...offline, modelFiles: "f".repeat(64) } })).embedded).toBe(0);
      expect((await runIndex({ paths: [root], db, embedder: { ...offline, modelFiles: "f".repeat(64), version: "2" } })).embedded).toBe(2);
    } finally {
      await offline.close();
    }
  });

  it("embeds everything again, with the manifests it has, when the texts this release embeds per skill differ from the index's", async () => {
    const root = tempDir();
    const db = path.join(tempDir(), "router.db");
    writeAgentSkill(root, "alpha");
    writeAgentSkill(root, "beta");
    await runIndex({ paths: [root], db });
    const writable = openIndexForWrite(db);
    expect(readMeta(writable).textsVersion).toBe(skillTextsVersion());
    // An index written by a release that embedded the description's exclusions as well.
    writeMetaValue(writable, "texts_version", "an older one");
    writable.close();
    const rerun = await runIndex({ paths: [root], db });
    expect([rerun.embedded, rerun.expansion.sources.heuristic]).toEqual([2, 0]);
    expect((await runIndex({ paths: [root], db })).embedded).toBe(0);
  });

  it("takes a changed analyser as a new index version (the evidence floor is measured per index version)", async () => {
    const root = tempDir();
    const db = path.join(tempDir(), "router.db");
    writeAgentSkill(root, "alpha");
    expect((await runIndex({ paths: [root], db })).indexVersion).toBe(1);
    expect((await runIndex({ paths: [root], db })).indexVersion).toBe(1);
    const writable = openIndexForWrite(db);
    writeMetaValue(writable, "analyser_version", "an older one");
    writable.close();
    const rerun = await runIndex({ paths: [root], db });
    expect([rerun.indexVersion, rerun.embedded]).toEqual([2, 0]);
    expect(analyserVersion((text) => text.split(" "))).not.toBe(analyserVersion());
  });
});
