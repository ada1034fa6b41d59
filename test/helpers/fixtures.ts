import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

const made: string[] = [];

/** A fresh temporary folder, removed after the current test. */
export function tempDir(prefix = "skill-router-"): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes a file, creating its folders. */
export function writeFile(file: string, content: string | Uint8Array): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

export interface SkillFixture {
  name?: string;
  description?: string;
  body?: string;
  extra?: string;
  files?: Record<string, string>;
}

/** Writes `<root>/<folder>/SKILL.md` with frontmatter, plus any supporting files. */
export function writeAgentSkill(root: string, folder: string, skill: SkillFixture = {}): string {
  const name = skill.name ?? folder;
  const description = skill.description ?? `Helps with ${folder.replace(/-/g, " ")} tasks.`;
  const frontmatter = [`name: ${name}`, `description: ${JSON.stringify(description)}`, ...(skill.extra ? [skill.extra] : [])].join("\n");
  const file = writeFile(path.join(root, folder, "SKILL.md"), `---\n${frontmatter}\n---\n\n${skill.body ?? `# ${name}\n\nStep-by-step instructions for ${name}.\n`}`);
  for (const [relative, content] of Object.entries(skill.files ?? {})) writeFile(path.join(root, folder, relative), content);
  return file;
}
