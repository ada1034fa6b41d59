import type { Dirent, Stats } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { MAX_LISTED_FILES } from "./limits.js";
import type { SkillProblem } from "./types.js";

/** A place skills can come from, found by walking an indexed root. */
export type SkillSource = { type: "skill-folder"; file: string; folder: string; files: string[] } | { type: "json"; file: string } | { type: "zip"; file: string };

export interface Discovery {
  /** The folder source paths are relative to in the index: the root, or the folder of a root that is a file. */
  folder: string;
  sources: SkillSource[];
  problems: SkillProblem[];
  warnings: SkillProblem[];
}

const SKILL_FILES = ["SKILL.md", "skill.md"];
const LISTED_FOLDERS = ["scripts", "references", "assets", "modules"];

// Anything but files and folders (FIFOs, sockets, devices) is never opened: reading a FIFO blocks forever.
type EntryType = "file" | "dir" | "fifo" | "socket" | "device";

/**
 * Walks a root in a stable (sorted) order. Skips hidden entries, `.disabled` entries and node_modules, and never
 * enters a folder twice (symlink loops). A symlink out of the root is followed only to a skill folder or a skill or
 * tool file: installers link each skill into an agent's folder (`.claude/skills/x -> ../../.agents/skills/x`), but
 * any other folder out there could be anything (a home directory).
 */
export async function discover(root: string): Promise<Discovery> {
  const absoluteRoot = path.resolve(root);
  if ((await stat(absoluteRoot)).isDirectory()) {
    const walker = new Walker(absoluteRoot, await realpath(absoluteRoot));
    await walker.walkFolder(absoluteRoot);
    return walker.result;
  }
  // A single file given as the root: its folder bounds where symlinks may lead.
  const walker = new Walker(path.dirname(absoluteRoot), await realpath(path.dirname(absoluteRoot)));
  await walker.addRootFile(absoluteRoot, entryType(await stat(absoluteRoot)));
  return walker.result;
}

class Walker {
  readonly result: Discovery;
  private readonly visited = new Set<string>();
  /** Real paths the walk may read below: the root, and each skill folder a symlink leads to outside it. */
  private readonly allowed: Set<string>;

  constructor(folder: string, realRoot: string) {
    this.result = { folder, sources: [], problems: [], warnings: [] };
    this.allowed = new Set([realRoot]);
  }

  async walkFolder(folder: string): Promise<void> {
    const entries = await this.readFolder(folder);
    if (entries === undefined) return;
    const skillFile = SKILL_FILES.find((name) => entries.get(name) === "file");
    for (const name of SKILL_FILES.filter((name) => name !== skillFile && entries.has(name) && entries.get(name) !== "file")) {
      this.result.problems.push({ file: path.join(folder, name), reason: `${name} is ${describeType(entries.get(name)!)}, not a file; not read as a skill` });
    }
    if (skillFile) {
      // A skill folder is a leaf: its scripts and references are listed, never searched for more skills.
      await this.addSkillFolder(path.join(folder, skillFile), entries);
      return;
    }
    for (const [name, type] of entries) {
      const full = path.join(folder, name);
      if (type === "dir") await this.walkFolder(full);
      else if (type === "file") this.addFile(full);
      else if (isToolOrArchiveName(name)) this.result.problems.push({ file: full, reason: `${describeType(type)}, not a regular file; not read` });
    }
  }

  async addRootFile(file: string, type: EntryType): Promise<void> {
    if (type !== "file") this.result.problems.push({ file, reason: `${describeType(type)}, not a regular file; not read` });
    else if (SKILL_FILES.includes(path.basename(file))) await this.addSkillFolder(file, await this.readFolder(path.dirname(file)));
    else if (!this.addFile(file)) this.result.problems.push({ file, reason: "not a skill folder, SKILL.md, skill.md, tool definition (.json) or .zip archive" });
  }

  /** Adds a tool file or zip archive; other files are not skill sources. */
  private addFile(file: string): boolean {
    if (!isToolOrArchiveName(path.basename(file))) return false;
    this.result.sources.push({ type: file.toLowerCase().endsWith(".zip") ? "zip" : "json", file });
    return true;
  }

  /** Lists a folder as name -> type, sorted, with skipped names removed and symlinks resolved inside the root. */
  private async readFolder(folder: string): Promise<Map<string, EntryType> | undefined> {
    let real: string;
    let dirents: Dirent[];
    try {
      real = await realpath(folder);
      if (!this.mayRead(real)) {
        this.result.warnings.push({ file: folder, reason: `symbolic link points outside the indexed root (${real}); not followed` });
        return undefined;
      }
      if (this.visited.has(real)) return undefined;
      this.visited.add(real);
      dirents = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      this.result.problems.push({ file: folder, reason: `cannot read folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` });
      return undefined;
    }
    const entries = new Map<string, EntryType>();
    for (const dirent of dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (isSkippedName(dirent.name)) continue;
      const full = path.join(folder, dirent.name);
      const type = dirent.isSymbolicLink() ? await this.followLink(full) : entryType(dirent);
      if (type) entries.set(dirent.name, type);
    }
    return entries;
  }

  /** The type a symlink points at, or undefined (with a warning) when it is broken or leaves the root for anything but a skill. */
  private async followLink(link: string): Promise<EntryType | undefined> {
    let target: string;
    try {
      target = await realpath(link);
    } catch {
      this.result.warnings.push({ file: link, reason: "broken symbolic link; skipped" });
      return undefined;
    }
    const type = entryType(await stat(target));
    if (this.mayRead(target)) return type;
    if (type === "dir" && (await isSkillFolder(target))) {
      this.allowed.add(target);
      return type;
    }
    const name = path.basename(link);
    if (type === "file" && (SKILL_FILES.includes(name) || isToolOrArchiveName(name))) return type;
    const hint = type === "dir" ? `not a skill folder; to index the skills in it, name it: router index <root> ${target}` : "not a skill or tool file";
    this.result.warnings.push({ file: link, reason: `symbolic link points outside the indexed root (${target}), ${hint}; not followed` });
    return undefined;
  }

  /** Whether a real path is an allowed folder or below one (ancestors looked up: thousands of linked skills stay cheap). */
  private mayRead(real: string): boolean {
    for (let folder = real; ; folder = path.dirname(folder)) {
      if (this.allowed.has(folder)) return true;
      if (folder === path.dirname(folder)) return false;
    }
  }

  private async addSkillFolder(file: string, entries: Map<string, EntryType> | undefined): Promise<void> {
    const folder = path.dirname(file);
    const files: string[] = [];
    for (const listed of LISTED_FOLDERS) {
      if (entries?.get(listed) === "dir") await this.listFiles(path.join(folder, listed), listed, files);
    }
    this.result.sources.push({ type: "skill-folder", file, folder, files: files.sort() });
  }

  /** Lists files below a supporting folder (relative paths), without reading them. */
  private async listFiles(folder: string, relative: string, files: string[]): Promise<void> {
    const entries = await this.readFolder(folder);
    for (const [name, type] of entries ?? []) {
      if (files.length >= MAX_LISTED_FILES) return;
      if (type === "dir") await this.listFiles(path.join(folder, name), `${relative}/${name}`, files);
      else files.push(`${relative}/${name}`);
    }
  }
}

function entryType(entry: Dirent | Stats): EntryType {
  if (entry.isDirectory()) return "dir";
  if (entry.isFile()) return "file";
  if (entry.isFIFO()) return "fifo";
  return entry.isSocket() ? "socket" : "device";
}

function describeType(type: EntryType): string {
  return { file: "a file", dir: "a folder", fifo: "a FIFO (named pipe)", socket: "a socket", device: "a device" }[type];
}

function isToolOrArchiveName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.endsWith(".json") || lower.endsWith(".zip");
}

function isSkippedName(name: string): boolean {
  return name.startsWith(".") || name.endsWith(".disabled") || name === "node_modules";
}

/** A folder holding a SKILL.md or skill.md file. */
async function isSkillFolder(folder: string): Promise<boolean> {
  for (const name of SKILL_FILES) {
    const found = await stat(path.join(folder, name)).catch(() => undefined);
    if (found?.isFile()) return true;
  }
  return false;
}
