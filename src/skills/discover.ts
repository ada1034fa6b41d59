import type { Dirent, Stats } from "node:fs";
import { lstat, readdir, readlink, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { MAX_LISTED_FILES } from "./limits.js";
import { MANIFEST_FILE_NAME, toolManifestFileName } from "./manifest-file.js";
import type { FoundFile, SkillProblem } from "./types.js";

/** A place skills can come from, found by walking an indexed root; `manifest` is the hand-written manifest beside it, when there is one. */
export type SkillSource =
  | ({ type: "skill-folder"; folder: string; files: string[]; manifest?: FoundFile } & FoundFile)
  | ({ type: "json"; manifest?: FoundFile } & FoundFile)
  | ({ type: "zip" } & FoundFile);

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

/** A folder entry as the walk may use it: its type (a symbolic link's target's), and the real path a link leads to. */
interface Entry {
  type: EntryType;
  target?: string;
}

/**
 * Walks a root in a stable (sorted) order. Skips hidden entries, `.disabled` entries and node_modules, and never
 * enters a folder twice; a symbolic link loop (a link to a folder that holds it, links that lead back to themselves)
 * is skipped with a warning that names it. Nothing outside the root is read, with one exception: a symbolic link to a
 * skill folder, which installers make (`.claude/skills/x -> ../../.agents/skills/x`); that folder then bounds what
 * its own links may reach. A link to a file is followed only when the file lies inside the root (or inside the
 * linked skill folder that holds the link), whatever the link is called: a link named SKILL.md may point anywhere.
 */
export async function discover(root: string): Promise<Discovery> {
  const absoluteRoot = path.resolve(root);
  if ((await stat(absoluteRoot)).isDirectory()) {
    const walker = new Walker(absoluteRoot, await realpath(absoluteRoot));
    await walker.walkFolder(absoluteRoot);
    return walker.result;
  }
  // A single file given as the root: its folder bounds where symlinks may lead.
  const folder = path.dirname(absoluteRoot);
  const walker = new Walker(folder, await realpath(folder));
  await walker.addRootFile(absoluteRoot);
  return walker.result;
}

class Walker {
  readonly result: Discovery;
  private readonly visited = new Set<string>();
  /** Real paths of the skill folders outside the root that a symbolic link led to: each bounds its own links. */
  private readonly linkedSkillFolders = new Set<string>();

  constructor(
    folder: string,
    private readonly realRoot: string,
  ) {
    this.result = { folder, sources: [], problems: [], warnings: [] };
  }

  async walkFolder(folder: string): Promise<void> {
    const entries = await this.readFolder(folder);
    if (entries === undefined) return;
    const skillFile = SKILL_FILES.find((name) => entries.get(name)?.type === "file");
    for (const name of SKILL_FILES.filter((name) => name !== skillFile && entries.has(name) && entries.get(name)!.type !== "file")) {
      this.result.problems.push({ file: path.join(folder, name), reason: `${name} is ${describeType(entries.get(name)!.type)}, not a file; not read as a skill` });
    }
    if (skillFile) {
      // A skill folder is a leaf: its scripts and references are listed, never searched for more skills.
      await this.addSkillFolder(folder, skillFile, entries);
      return;
    }
    for (const [name, entry] of entries) {
      const full = path.join(folder, name);
      if (entry.type === "dir") await this.walkFolder(full);
      else if (entry.type === "file") this.addFile(full, entry, entries);
      else if (isToolOrArchiveName(name)) this.result.problems.push({ file: full, reason: `${describeType(entry.type)}, not a regular file; not read` });
    }
  }

  async addRootFile(file: string): Promise<void> {
    const name = path.basename(file);
    const entries = (await this.readFolder(path.dirname(file))) ?? new Map<string, Entry>();
    // A hidden root file is read when named: only the walk skips hidden entries.
    const entry = entries.get(name) ?? (await this.entryOf(file, (await lstat(file)).isSymbolicLink()));
    if (entry === undefined) return;
    if (entry.type !== "file") this.result.problems.push({ file, reason: `${describeType(entry.type)}, not a regular file; not read` });
    else if (SKILL_FILES.includes(name)) await this.addSkillFolder(path.dirname(file), name, entries);
    else if (!this.addFile(file, entry, entries)) this.result.problems.push({ file, reason: "not a skill folder, SKILL.md, skill.md, tool definition (.json) or .zip archive" });
  }

  /** Adds a tool file or zip archive; other files are not skill sources. */
  private addFile(file: string, entry: Entry, entries: Map<string, Entry>): boolean {
    const name = path.basename(file);
    if (!isToolOrArchiveName(name)) return false;
    const found = foundFile(file, entry);
    if (name.toLowerCase().endsWith(".zip")) this.result.sources.push({ type: "zip", ...found });
    else this.result.sources.push({ type: "json", ...found, ...manifestBeside(path.dirname(file), toolManifestFileName(file), entries) });
    return true;
  }

  /** Lists a folder as name -> entry, sorted, with skipped names removed and symlinks resolved within bounds. */
  private async readFolder(folder: string): Promise<Map<string, Entry> | undefined> {
    let real: string;
    let dirents: Dirent[];
    try {
      real = await realpath(folder);
      if (this.boundOf(real) === undefined) {
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
    const entries = new Map<string, Entry>();
    for (const dirent of dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (isSkippedName(dirent.name)) continue;
      const entry = await this.entryOf(path.join(folder, dirent.name), dirent.isSymbolicLink(), dirent);
      if (entry) entries.set(dirent.name, entry);
    }
    return entries;
  }

  private async entryOf(full: string, isLink: boolean, dirent?: Dirent): Promise<Entry | undefined> {
    if (!isLink) return { type: entryType(dirent ?? (await stat(full))) };
    return this.followLink(full);
  }

  /** Where a symlink leads, or undefined (with a warning) when it is broken, a loop, or leaves the bounds for anything but a skill folder. */
  private async followLink(link: string): Promise<Entry | undefined> {
    let target: string;
    let holder: string;
    try {
      target = await realpath(link);
      holder = await realpath(path.dirname(link));
    } catch (error) {
      this.result.warnings.push({ file: link, reason: await unresolvedLinkReason(link, error) });
      return undefined;
    }
    const type = entryType(await stat(target));
    // Following a link to a folder that holds it would walk the same files again, without end.
    if (type === "dir" && isWithin(holder, target)) {
      this.result.warnings.push({ file: link, reason: `symbolic link loop: it leads to ${target}, a folder that holds the link; not followed` });
      return undefined;
    }
    // Inside the root, or inside the linked skill folder that holds the link.
    if (isWithin(target, this.realRoot) || isWithin(target, this.boundOf(holder) ?? this.realRoot)) return { type, target };
    if (type === "dir" && (await isSkillFolder(target))) {
      this.linkedSkillFolders.add(target);
      return { type, target };
    }
    const hint = type === "dir" ? `not a skill folder; to index the skills in it, name it: router index <root> ${target}` : "only a link to a skill folder may lead out of it";
    this.result.warnings.push({ file: link, reason: `symbolic link points outside the indexed root (${target}), ${hint}; not followed` });
    return undefined;
  }

  /** The root or linked skill folder a real path lies in (the innermost), or undefined outside all of them. */
  private boundOf(real: string): string | undefined {
    for (let folder = real; ; folder = path.dirname(folder)) {
      if (folder === this.realRoot || this.linkedSkillFolders.has(folder)) return folder;
      if (folder === path.dirname(folder)) return undefined;
    }
  }

  private async addSkillFolder(folder: string, skillFile: string, entries: Map<string, Entry>): Promise<void> {
    const files: string[] = [];
    for (const listed of LISTED_FOLDERS) {
      if (entries.get(listed)?.type === "dir") await this.listFiles(path.join(folder, listed), listed, files);
    }
    const found = foundFile(path.join(folder, skillFile), entries.get(skillFile)!);
    this.result.sources.push({ type: "skill-folder", ...found, folder, files: files.sort(), ...manifestBeside(folder, MANIFEST_FILE_NAME, entries) });
  }

  /** Lists files below a supporting folder (relative paths), without reading them. */
  private async listFiles(folder: string, relative: string, files: string[]): Promise<void> {
    const entries = await this.readFolder(folder);
    for (const [name, entry] of entries ?? []) {
      if (files.length >= MAX_LISTED_FILES) return;
      if (entry.type === "dir") await this.listFiles(path.join(folder, name), `${relative}/${name}`, files);
      else files.push(`${relative}/${name}`);
    }
  }
}

// Links read when naming a loop: more than the 40 hops after which the system gives up (ELOOP).
const MAX_HOPS = 41;

/** Why a link has no real path: a loop (named hop by hop), a missing target, or what the system said. */
async function unresolvedLinkReason(link: string, error: unknown): Promise<string> {
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  if (code === "ENOENT") {
    const target = await readlink(link).catch(() => undefined);
    return target === undefined ? "broken symbolic link; skipped" : `broken symbolic link: its target ${target} does not exist; skipped`;
  }
  if (code !== "ELOOP") return `cannot follow symbolic link (${code}); skipped`;
  const hops = [link];
  for (let at = link; hops.length <= MAX_HOPS; ) {
    const next = await readlink(at).then(
      (target) => path.resolve(path.dirname(at), target),
      () => undefined,
    );
    if (next === undefined) break;
    hops.push(next);
    if (hops.indexOf(next) < hops.length - 1) {
      const names = hops.map((hop) => path.relative(path.dirname(link), hop) || ".");
      return `symbolic link loop: ${names.join(" -> ")}; skipped`;
    }
    at = next;
  }
  return `symbolic link loop: more than ${MAX_HOPS - 1} links in a row or one that leads back through a folder (ELOOP); skipped`;
}

function foundFile(file: string, entry: Entry): FoundFile {
  return entry.target === undefined ? { file } : { file, target: entry.target };
}

/** The manifest file beside a source, when the folder holds one the walk may read (not a link out of bounds). */
function manifestBeside(folder: string, name: string, entries: Map<string, Entry>): { manifest?: FoundFile } {
  const entry = entries.get(name);
  return entry === undefined ? {} : { manifest: foundFile(path.join(folder, name), entry) };
}

function isWithin(real: string, folder: string): boolean {
  return real === folder || real.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
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

/** A folder holding a SKILL.md or skill.md file that lies inside it (a link in it to elsewhere does not make it one). */
async function isSkillFolder(folder: string): Promise<boolean> {
  for (const name of SKILL_FILES) {
    const real = await realpath(path.join(folder, name)).catch(() => undefined);
    if (real !== undefined && isWithin(real, folder) && (await stat(real)).isFile()) return true;
  }
  return false;
}
