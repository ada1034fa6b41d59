import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSkills } from "../../src/skills/load-skills.js";
import { readRegularFile } from "../../src/skills/read-regular-file.js";
import { runCli } from "../helpers/cli.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";
import { writeZip } from "../helpers/zip.js";

// What an attacker wants read: any file outside the indexed root. Nothing of it may reach a skill, a warning's text aside.
const SECRET = "secret-marker-4b1d";
const names = (result: Awaited<ReturnType<typeof loadSkills>>) => result.skills.map((skill) => skill.name);
const leaked = (result: Awaited<ReturnType<typeof loadSkills>>) => JSON.stringify(result.skills).includes(SECRET);

/** A folder outside the root holding a secret that looks like a skill, a tool file, an archive and a manifest. */
async function outsideFiles(): Promise<string> {
  const outside = tempDir();
  writeFile(path.join(outside, "passwd"), `---\nname: stolen\ndescription: ${SECRET}\n---\n${SECRET}\n`);
  writeFile(path.join(outside, "api.json"), JSON.stringify([{ name: "stolen_tool", description: SECRET, parameters: {} }]));
  writeFile(path.join(outside, "manifest.yaml"), `keywords: [${SECRET}]\n`);
  await writeZip(path.join(outside, "bundle.zip"), { "stolen/SKILL.md": `---\nname: stolen-zip\ndescription: ${SECRET}\n---\n` });
  return outside;
}

describe("symbolic links never lead the index out of its roots", () => {
  it("an absolute link named SKILL.md, skill.md, tools.json, a .zip or a manifest is not followed out of the root", async () => {
    const outside = await outsideFiles();
    const root = tempDir();
    mkdirSync(path.join(root, "upper"));
    symlinkSync(path.join(outside, "passwd"), path.join(root, "upper", "SKILL.md"));
    mkdirSync(path.join(root, "lower"));
    symlinkSync(path.join(outside, "passwd"), path.join(root, "lower", "skill.md"));
    symlinkSync(path.join(outside, "api.json"), path.join(root, "tools.json"));
    symlinkSync(path.join(outside, "bundle.zip"), path.join(root, "bundle.zip"));
    writeAgentSkill(root, "honest");
    symlinkSync(path.join(outside, "manifest.yaml"), path.join(root, "honest", "router-manifest.yaml"));
    writeFile(path.join(root, "own.json"), JSON.stringify([{ name: "own_tool", description: "Looks things up", parameters: {} }]));
    symlinkSync(path.join(outside, "manifest.yaml"), path.join(root, "own.router-manifest.yaml"));

    const result = await loadSkills([root]);
    expect(names(result)).toEqual(["honest", "own_tool"]);
    expect(leaked(result)).toBe(false);
    expect(result.skills.every((skill) => skill.metadata.manifestFile === undefined)).toBe(true);
    const refused = result.warnings.filter((warning) => warning.reason.includes("only a link to a skill folder may lead out of it"));
    expect(refused.map((warning) => path.relative(root, warning.file)).sort()).toEqual(
      ["bundle.zip", "honest/router-manifest.yaml", "lower/skill.md", "own.router-manifest.yaml", "tools.json", "upper/SKILL.md"].sort(),
    );
  });

  it("a relative link climbing out of the root is not followed", async () => {
    const outside = await outsideFiles();
    const root = tempDir();
    mkdirSync(path.join(root, "x"));
    symlinkSync(path.relative(path.join(root, "x"), path.join(outside, "passwd")), path.join(root, "x", "skill.md"));
    const result = await loadSkills([root], {});
    expect(names(result)).toEqual([]);
    expect(leaked(result)).toBe(false);
    expect(result.warnings).toEqual([expect.objectContaining({ file: path.join(root, "x", "skill.md") })]);
  });

  it("a chain of links is judged by where it ends, through a file or a folder inside the root", async () => {
    const outside = await outsideFiles();
    const root = tempDir();
    // x/SKILL.md -> hop (a link inside the root) -> the secret
    symlinkSync(path.join(outside, "passwd"), path.join(root, "hop"));
    mkdirSync(path.join(root, "x"));
    symlinkSync(path.join(root, "hop"), path.join(root, "x", "SKILL.md"));
    // y/SKILL.md -> ../door/passwd, where door is a link to the outside folder (not a skill folder)
    symlinkSync(outside, path.join(root, "door"));
    mkdirSync(path.join(root, "y"));
    symlinkSync("../door/passwd", path.join(root, "y", "SKILL.md"));
    const result = await loadSkills([root]);
    expect(names(result)).toEqual([]);
    expect(leaked(result)).toBe(false);
  });

  it("a link inside the root to a file inside the root is followed", async () => {
    const root = tempDir();
    writeFile(path.join(root, "drafts", "release.md"), "---\nname: release-notes\ndescription: Drafts release notes.\n---\nBody\n");
    mkdirSync(path.join(root, "release-notes"));
    symlinkSync("../drafts/release.md", path.join(root, "release-notes", "SKILL.md"));
    expect(names(await loadSkills([root]))).toEqual(["release-notes"]);
  });

  it("a linked skill folder is read, but links from it or into it reach nothing else of the outside", async () => {
    const outside = await outsideFiles();
    const shared = tempDir();
    // How installers link a skill in: the folder is followed, and bounds its own links.
    writeAgentSkill(shared, "pdf", { files: { "notes.md": `${SECRET} notes` } });
    symlinkSync(path.join(outside, "passwd"), path.join(shared, "pdf", "scripts"));
    // A skill folder whose SKILL.md is itself a link out: not a skill folder at all.
    mkdirSync(path.join(shared, "decoy"));
    symlinkSync(path.join(outside, "passwd"), path.join(shared, "decoy", "SKILL.md"));
    const root = tempDir();
    symlinkSync(path.join(shared, "pdf"), path.join(root, "pdf"));
    symlinkSync(path.join(shared, "decoy"), path.join(root, "decoy"));
    // Into another skill: a link to a file in the linked skill folder, from a folder of the root.
    mkdirSync(path.join(root, "thief"));
    symlinkSync(path.join(shared, "pdf", "notes.md"), path.join(root, "thief", "SKILL.md"));

    const result = await loadSkills([root]);
    expect(names(result)).toEqual(["pdf"]);
    expect(leaked(result)).toBe(false);
    expect(result.skills[0]!.metadata.supportingFiles).toBeUndefined();
    expect(result.warnings.map((warning) => path.relative(root, warning.file)).sort()).toEqual(["decoy", "pdf/scripts", "thief/SKILL.md"]);
  });

  it("a link into the index's own folder is not followed: `router show` has nothing of it", () => {
    const work = tempDir();
    const db = path.join(work, "index", "router.db");
    const root = path.join(work, "skills");
    writeAgentSkill(root, "honest", { description: SECRET });
    expect(runCli(["index", root, "--db", db, "-q"]).status).toBe(0);
    // The index holds the secret now; a second run must not read its own file as a skill.
    mkdirSync(path.join(root, "x"));
    symlinkSync(path.relative(path.join(root, "x"), db), path.join(root, "x", "skill.md"));
    symlinkSync(path.join(work, "index"), path.join(root, "y"));
    const run = runCli(["index", root, "--db", db, "--json", "-q"]);
    expect(run.status).toBe(0);
    const summary = JSON.parse(run.stdout) as { skills: number; invalid: unknown[]; warnings: { file: string; reason: string }[] };
    expect(summary.skills).toBe(1);
    expect(summary.invalid).toEqual([]);
    expect(summary.warnings.map((warning) => path.relative(root, warning.file)).sort()).toEqual(["x/skill.md", "y"]);
    expect(runCli(["show", "x", "--db", db]).status).toBe(3);
  });

  it("the issue's case end to end: a link named skill.md to a file outside is neither indexed nor served", async () => {
    const outside = await outsideFiles();
    const work = tempDir();
    mkdirSync(path.join(work, "s", "x"), { recursive: true });
    writeAgentSkill(path.join(work, "s"), "honest");
    symlinkSync(path.join(outside, "passwd"), path.join(work, "s", "x", "skill.md"));
    const db = path.join(work, "t.db");
    expect(runCli(["index", "s", "--db", db, "-q"], { cwd: work }).status).toBe(0);
    const show = runCli(["show", "x", "--db", db], { cwd: work });
    expect(show.stdout).not.toContain(SECRET);
    expect(show.stderr).toMatch(/SKILL_NOT_FOUND/);
    for (const file of [db, `${db}-wal`]) if (existsSync(file)) expect(readFileSync(file).includes(SECRET)).toBe(false);
  });

  it("a file swapped for a link after discovery is not read through the link", async () => {
    const outside = await outsideFiles();
    const root = tempDir();
    symlinkSync(path.join(outside, "passwd"), path.join(root, "SKILL.md"));
    expect(await readRegularFile(path.join(root, "SKILL.md"), 1024)).toEqual({ refused: "symbolic-link" });
  });
});

describe("symbolic link loops", () => {
  it("are skipped with a warning that names each link and the loop, never as a broken link or silently", async () => {
    const root = tempDir();
    writeAgentSkill(root, "notes", { files: { "scripts/run.sh": "echo hi\n" } });
    const skill = path.join(root, "notes");
    // A link to itself, two links to each other, a link to the skill folder that holds it.
    symlinkSync("self", path.join(skill, "scripts", "self"));
    symlinkSync("pong", path.join(skill, "ping"));
    symlinkSync("ping", path.join(skill, "pong"));
    symlinkSync("..", path.join(skill, "scripts", "up"));
    // Outside skill folders: a folder link back to the root, a SKILL.md and a tool file that are loops.
    mkdirSync(path.join(root, "drafts"));
    symlinkSync("..", path.join(root, "drafts", "back"));
    mkdirSync(path.join(root, "circular"));
    symlinkSync("SKILL.md", path.join(root, "circular", "SKILL.md"));
    symlinkSync("tools.json", path.join(root, "tools.json"));
    // A broken link is still called broken.
    symlinkSync("missing.md", path.join(root, "drafts", "gone.md"));

    const result = await loadSkills([root]);
    expect(names(result)).toEqual(["notes"]);
    expect(result.skills[0]!.metadata.supportingFiles).toEqual(["scripts/run.sh"]);
    expect(result.invalid).toEqual([]);
    const warned = Object.fromEntries(result.warnings.map((warning) => [path.relative(root, warning.file), warning.reason]));
    expect(warned).toEqual({
      "circular/SKILL.md": "symbolic link loop: SKILL.md -> SKILL.md; skipped",
      "drafts/back": `symbolic link loop: it leads to ${realpathSync(root)}, a folder that holds the link; not followed`,
      "drafts/gone.md": "broken symbolic link: its target missing.md does not exist; skipped",
      "notes/ping": "symbolic link loop: ping -> pong -> ping; skipped",
      "notes/pong": "symbolic link loop: pong -> ping -> pong; skipped",
      "notes/scripts/self": "symbolic link loop: self -> self; skipped",
      "notes/scripts/up": `symbolic link loop: it leads to ${realpathSync(skill)}, a folder that holds the link; not followed`,
      "tools.json": "symbolic link loop: tools.json -> tools.json; skipped",
    });
  });

  it("a file turned into a looping link after discovery is refused as a link, with a reason", async () => {
    const root = tempDir();
    symlinkSync("SKILL.md", path.join(root, "SKILL.md"));
    expect(await readRegularFile(path.join(root, "SKILL.md"), 1024)).toEqual({ refused: "symbolic-link" });
  });
});
