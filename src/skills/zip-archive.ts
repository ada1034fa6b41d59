import { lstat } from "node:fs/promises";
import path from "node:path";
import yauzl from "yauzl";
import { decodeText, formatBytes, sizeAgainstLimit } from "./decode-text.js";
import { MANIFEST_FILE_NAME } from "./manifest-file.js";
import { MAX_MANIFEST_FILE_BYTES, MAX_SKILL_FILE_BYTES, MAX_ZIP_ENTRIES, MAX_ZIP_FILE_BYTES, MAX_ZIP_TOTAL_UNCOMPRESSED_BYTES } from "./limits.js";
import type { SkillDocument, SkillProblem } from "./types.js";

export interface ZipReadResult {
  documents: SkillDocument[];
  problems: SkillProblem[];
  warnings: SkillProblem[];
}

const SKILL_FILES = ["SKILL.md", "skill.md"];
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/**
 * Reads the skill folders inside a zip without extracting it. yauzl rejects absolute paths, `..` segments
 * and backslashes (an archive that tries to escape its folder is refused whole); sizes are bounded before
 * anything is inflated, and yauzl checks that inflated sizes match what the archive declares. `target` is the real
 * path to read when discovery reached the archive through a symbolic link; `zipPath` names it in reports.
 */
export async function readZipArchive(zipPath: string, target = zipPath): Promise<ZipReadResult> {
  const result: ZipReadResult = { documents: [], problems: [], warnings: [] };
  const stats = await lstat(target);
  if (!stats.isFile()) {
    result.problems.push({ file: zipPath, reason: "not a regular file; not read" });
    return result;
  }
  const size = stats.size;
  if (size > MAX_ZIP_FILE_BYTES) {
    result.problems.push({ file: zipPath, reason: `zip archive is ${sizeAgainstLimit(size, MAX_ZIP_FILE_BYTES)}` });
    return result;
  }
  let zip: yauzl.ZipFile | undefined;
  try {
    zip = await yauzl.openPromise(target, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true });
    const entries = await listEntries(zip, zipPath, result);
    if (entries === undefined) return result;
    const skills = skillEntries(entries);
    if (skills.size === 0) result.problems.push({ file: zipPath, reason: noSkillReason(entries) });
    for (const [folder, entry] of skills) {
      const document = await readSkillEntry(zip, zipPath, folder, entry, entries, result);
      if (document) result.documents.push(document);
    }
  } catch (error) {
    result.problems.push({ file: zipPath, reason: `unsafe or damaged zip archive: ${(error as Error).message}` });
  } finally {
    zip?.close();
  }
  return result;
}

async function listEntries(zip: yauzl.ZipFile, zipPath: string, result: ZipReadResult): Promise<Map<string, yauzl.Entry> | undefined> {
  const entries = new Map<string, yauzl.Entry>();
  let declaredBytes = 0;
  for await (const entry of zip.eachEntry()) {
    if (entries.size >= MAX_ZIP_ENTRIES) {
      result.problems.push({ file: zipPath, reason: `zip archive has more than ${MAX_ZIP_ENTRIES} entries` });
      return undefined;
    }
    declaredBytes += entry.uncompressedSize;
    if (declaredBytes > MAX_ZIP_TOTAL_UNCOMPRESSED_BYTES) {
      result.problems.push({ file: zipPath, reason: `zip archive inflates to more than ${formatBytes(MAX_ZIP_TOTAL_UNCOMPRESSED_BYTES)}` });
      return undefined;
    }
    if (entry.fileName.endsWith("/") || isSkipped(entry.fileName)) continue;
    if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
      result.warnings.push({ file: `${zipPath}!/${entry.fileName}`, reason: "symbolic link inside a zip archive; not followed" });
      continue;
    }
    entries.set(entry.fileName, entry);
  }
  return entries;
}

/** Why an archive gave no skill: it holds no skill file; archives inside it are not opened, so they are named. */
function noSkillReason(entries: Map<string, yauzl.Entry>): string {
  const archives = [...entries.keys()].filter((name) => name.toLowerCase().endsWith(".zip"));
  const nested = archives.length === 0 ? "" : `; archives inside an archive are not opened (${archives.slice(0, 3).join(", ")}${archives.length > 3 ? ", ..." : ""})`;
  return `zip archive holds no SKILL.md or skill.md${nested}`;
}

/** Hidden entries, `.disabled` entries and node_modules are skipped inside archives as on disk. */
function isSkipped(fileName: string): boolean {
  return fileName.split("/").some((part) => part.startsWith(".") || part.endsWith(".disabled") || part === "node_modules");
}

/** Folder -> its skill file entry; SKILL.md wins over skill.md in the same folder. */
function skillEntries(entries: Map<string, yauzl.Entry>): Map<string, yauzl.Entry> {
  const found = new Map<string, yauzl.Entry>();
  for (const name of SKILL_FILES) {
    for (const [fileName, entry] of entries) {
      if (path.posix.basename(fileName) !== name) continue;
      const folder = path.posix.dirname(fileName);
      if (!found.has(folder)) found.set(folder, entry);
    }
  }
  return new Map([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

async function readSkillEntry(zip: yauzl.ZipFile, zipPath: string, folder: string, entry: yauzl.Entry, entries: Map<string, yauzl.Entry>, result: ZipReadResult): Promise<SkillDocument | undefined> {
  const displayPath = `${zipPath}!/${entry.fileName}`;
  if (entry.uncompressedSize > MAX_SKILL_FILE_BYTES) {
    result.problems.push({ file: displayPath, reason: `file is ${sizeAgainstLimit(entry.uncompressedSize, MAX_SKILL_FILE_BYTES)}` });
    return undefined;
  }
  const decoded = decodeText(await readEntry(zip, entry));
  if ("reason" in decoded) {
    result.problems.push({ file: displayPath, reason: decoded.reason });
    return undefined;
  }
  const prefix = folder === "." ? "" : `${folder}/`;
  const manifestEntry = entries.get(`${prefix}${MANIFEST_FILE_NAME}`);
  const manifestFits = manifestEntry !== undefined && manifestEntry.uncompressedSize <= MAX_MANIFEST_FILE_BYTES;
  if (manifestEntry && !manifestFits)
    result.warnings.push({ file: displayPath, reason: `${MANIFEST_FILE_NAME} is ${sizeAgainstLimit(manifestEntry.uncompressedSize, MAX_MANIFEST_FILE_BYTES)}; ignored` });
  const manifestText = manifestFits ? decodeText(await readEntry(zip, manifestEntry)) : undefined;
  const files = [...entries.keys()]
    .filter((name) => name !== entry.fileName && name.startsWith(prefix))
    .map((name) => name.slice(prefix.length))
    .sort();
  return {
    path: displayPath,
    text: decoded.text,
    folderName: folder === "." ? path.basename(zipPath, ".zip") : path.posix.basename(folder),
    files,
    ...(manifestText && "text" in manifestText ? { manifestFile: { file: MANIFEST_FILE_NAME, text: manifestText.text } } : {}),
  };
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
