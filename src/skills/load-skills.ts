import path from "node:path";
import pLimit from "p-limit";
import { agentSkillParser } from "./agent-skill.js";
import { contentHash, skillId } from "./content-hash.js";
import { decodeText, sizeAgainstLimit } from "./decode-text.js";
import { discover, type SkillSource } from "./discover.js";
import { evalSetParser } from "./eval-set.js";
import { MAX_JSON_FILE_BYTES, MAX_SKILL_FILE_BYTES } from "./limits.js";
import { attachManifestFile, readManifestFile } from "./manifest-file.js";
import { skillMdParser } from "./skill-md.js";
import { toolJsonParser } from "./tool-json.js";
import { documentHash, riskKey } from "./risk-key.js";
import { riskFlagsOf, type RiskyPolicy } from "./risk-scan.js";
import type { ParsedSkill, ParseOptions, RiskyReport, Skill, SkillDocument, SkillParser, SkillProblem } from "./types.js";
import { readRegularFile, refusalReason } from "./read-regular-file.js";
import { readZipArchive } from "./zip-archive.js";
import type { RiskFlag } from "../store/records.js";
import { relativeSourcePath } from "../store/skill-location.js";

/**
 * A skill as read from its source: everything but the token count, which is computed only for changed skills,
 * the position of its root among the paths given (two roots may share a folder, so the index names it by position),
 * and the key its risk flags are stored under (skills/risk-key.ts).
 */
export type LoadedSkill = Omit<Skill, "tokens"> & { rootPosition: number; riskKey: string };

export interface LoadResult {
  skills: LoadedSkill[];
  /** The folder of each root, in the order given: skills' relative paths are relative to their root's. */
  rootFolders: string[];
  /** Files that could not be indexed, with the reason. */
  invalid: SkillProblem[];
  /** Indexed, but worth a look (name/folder mismatch, duplicates, symlinks not followed...). */
  warnings: SkillProblem[];
  /** JSON files that are not tool definitions; not an error, listed for --verbose. */
  ignored: SkillProblem[];
  /** Skills the risky-skill rules flagged, indexed or left out by the policy. */
  risky: RiskyReport[];
}

export interface LoadOptions extends ParseOptions {
  /** What a flagged skill gets: indexed with a warning (the default), or left out. */
  risky?: RiskyPolicy;
  /** Flags a previous index run stored, by risk key: a skill whose key is among them keeps its flags unread. */
  storedRisks?: ReadonlyMap<string, RiskFlag[]>;
  onProgress?: (done: number, total: number, file: string) => void;
}

const READ_CONCURRENCY = 16;
const FOLDER_PARSERS: SkillParser[] = [agentSkillParser, skillMdParser];
// An eval set is tried first: its top-level object would otherwise be scanned as a tool file.
const JSON_PARSERS: SkillParser[] = [evalSetParser, toolJsonParser];

/**
 * Reads every skill under the roots, in a stable order: roots as given, then sorted paths. When two skills
 * share a name the first one wins and the other is reported, so every run resolves it the same way.
 */
export async function loadSkills(roots: string[], options: LoadOptions = {}): Promise<LoadResult> {
  const parseOptions: ParseOptions = { strict: options.strict ?? false };
  const storedRisks = options.storedRisks ?? new Map<string, RiskFlag[]>();
  const result: LoadResult = { skills: [], rootFolders: [], invalid: [], warnings: [], ignored: [], risky: [] };
  const found: { root: string; rootPosition: number; source: SkillSource }[] = [];
  for (const [rootPosition, root] of roots.entries()) {
    const discovery = await discover(root);
    result.rootFolders.push(discovery.folder);
    result.invalid.push(...discovery.problems);
    result.warnings.push(...discovery.warnings);
    found.push(...discovery.sources.map((source) => ({ root: discovery.folder, rootPosition, source })));
  }
  // Reading overlaps file I/O; results are consumed in discovery order, so the outcome stays deterministic.
  const limit = pLimit(READ_CONCURRENCY);
  const parsing = found.map(({ source }) => limit(() => parseSource(source, parseOptions, storedRisks)));
  const winners = new Map<string, LoadedSkill>();
  for (const [index, { root, rootPosition, source }] of found.entries()) {
    options.onProgress?.(index, found.length, source.file);
    const outcome = await parsing[index]!;
    result.invalid.push(...outcome.invalid);
    result.warnings.push(...outcome.warnings);
    result.ignored.push(...outcome.ignored);
    for (const { flags, ...candidate } of outcome.skills) {
      const winner = winners.get(candidate.name);
      // A duplicate is skipped without its flags unless the policy may leave it out for them: a skill left out is as if
      // absent, and takes no name from a skill after it.
      const parsed = { ...candidate, risks: winner && options.risky !== "exclude" ? [] : flags() };
      const excluded = parsed.risks.length > 0 && options.risky === "exclude";
      if (winner && !excluded) {
        result.warnings.push({ file: parsed.sourcePath, reason: `duplicate name "${parsed.name}", already defined by ${winner.sourcePath}; skipped` });
        continue;
      }
      if (parsed.risks.length > 0) result.risky.push({ name: parsed.name, file: parsed.sourcePath, flags: parsed.risks, excluded });
      if (excluded) continue;
      const skill = { ...parsed, id: skillId(parsed.kind, parsed.name), root, rootPosition, relativePath: relativeSourcePath(root, parsed.sourcePath), contentHash: contentHash(parsed) };
      winners.set(parsed.name, skill);
      result.skills.push(skill);
      result.warnings.push(...parsed.warnings.map((reason) => ({ file: parsed.sourcePath, reason })));
    }
  }
  options.onProgress?.(found.length, found.length, "");
  return result;
}

/** The skills of one source and what went wrong with it, before duplicates are resolved. */
interface SourceOutcome {
  /** Each with its risk flags to ask for: the ones stored under its key, or else read now. */
  skills: (ParsedSkill & { riskKey: string; flags: () => RiskFlag[] })[];
  invalid: SkillProblem[];
  warnings: SkillProblem[];
  ignored: SkillProblem[];
}

async function parseSource(source: SkillSource, options: ParseOptions, storedRisks: ReadonlyMap<string, RiskFlag[]>): Promise<SourceOutcome> {
  const outcome: SourceOutcome = { skills: [], invalid: [], warnings: [], ignored: [] };
  if (source.type === "zip") {
    const archive = await readZipArchive(source.file, source.target);
    outcome.invalid.push(...archive.problems);
    outcome.warnings.push(...archive.warnings);
    outcome.skills = archive.documents.flatMap((document) => runParsers(FOLDER_PARSERS, document, options, storedRisks, outcome));
    return outcome;
  }
  const limit = source.type === "json" ? MAX_JSON_FILE_BYTES : MAX_SKILL_FILE_BYTES;
  const document = await readDocument(source, limit, outcome);
  if (document) outcome.skills = runParsers(source.type === "json" ? JSON_PARSERS : FOLDER_PARSERS, document, options, storedRisks, outcome);
  return outcome;
}

/** The first parser that accepts the file name and recognises the content decides. */
function runParsers(parsers: SkillParser[], document: SkillDocument, options: ParseOptions, storedRisks: ReadonlyMap<string, RiskFlag[]>, result: SourceOutcome): SourceOutcome["skills"] {
  const fileName = path.posix.basename(document.path);
  let unrecognised = "no parser for this file";
  for (const parser of parsers.filter((candidate) => candidate.accepts(fileName))) {
    const parsed = parser.parse(document, options);
    if (parsed.unrecognised !== undefined) {
      unrecognised = parsed.unrecognised;
      continue;
    }
    result.invalid.push(...parsed.problems);
    const manifestFile = path.posix.join(path.posix.dirname(document.path), document.manifestFile?.file ?? "");
    for (const reason of attachManifestFile(parsed.skills, document, parsers === JSON_PARSERS ? "tools" : "folder")) result.warnings.push({ file: manifestFile, reason });
    // Reading a skill against the rules is most of a run that changes nothing: flags stored under its key are the ones it would get.
    const fileHash = documentHash(document.text);
    return parsed.skills.map((skill) => {
      const key = riskKey(skill, fileHash);
      return { ...skill, riskKey: key, flags: () => storedRisks.get(key) ?? riskFlagsOf(skill, document) };
    });
  }
  result.ignored.push({ file: document.path, reason: unrecognised });
  return [];
}

async function readDocument(source: Exclude<SkillSource, { type: "zip" }>, limit: number, result: SourceOutcome): Promise<SkillDocument | undefined> {
  try {
    const bytes = await readRegularFile(source.target ?? source.file, limit);
    if ("refused" in bytes) {
      result.invalid.push({ file: source.file, reason: "size" in bytes ? `file is ${sizeAgainstLimit(bytes.size, limit)}` : `${refusalReason(bytes.refused)}; not read` });
      return undefined;
    }
    const decoded = decodeText(bytes.content);
    if ("reason" in decoded) {
      result.invalid.push({ file: source.file, reason: decoded.reason });
      return undefined;
    }
    const folder = path.dirname(source.file);
    const manifestFile = source.manifest ? await readManifestFile(source.manifest) : undefined;
    if (manifestFile && "problem" in manifestFile) result.warnings.push({ file: source.file, reason: manifestFile.problem });
    return {
      path: source.file,
      text: decoded.text,
      folderName: path.basename(folder),
      files: source.type === "skill-folder" ? source.files : [],
      ...(manifestFile && "text" in manifestFile ? { manifestFile } : {}),
    };
  } catch (error) {
    result.invalid.push({ file: source.file, reason: `cannot read file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` });
    return undefined;
  }
}
