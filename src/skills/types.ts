import type { RiskFlag, SkillRecord } from "../store/records.js";

export type { SkillFormat, SkillKind, SkillMetadata } from "../store/records.js";

/** A file that holds one or more skills, read from disk or from inside a zip archive. */
export interface SkillDocument {
  /** An absolute path, or `/path/to/archive.zip!/inner/path` inside a zip. */
  path: string;
  text: string;
  /** Name of the folder that holds the file. */
  folderName: string;
  /** Other files of the skill folder, relative to it (only for folder formats). */
  files: string[];
  /** The hand-written routing manifest beside the file, when there is one (skills/manifest-file.ts). */
  manifestFile?: { file: string; text: string };
}

/** What a parser extracts from a document, before the indexer adds id, hash, token count and where it is. */
export type ParsedSkill = Pick<SkillRecord, "name" | "kind" | "format" | "description" | "body" | "injection" | "sourcePath" | "metadata" | "warnings">;

/** A parsed skill with what the risky-skill rules flagged in it (skills/risk-scan.ts). */
export type ScannedSkill = ParsedSkill & Pick<SkillRecord, "risks">;

/** A flagged skill as `router index` reports it: indexed with a warning, or left out by `--risky exclude`. */
export interface RiskyReport {
  name: string;
  file: string;
  flags: RiskFlag[];
  excluded: boolean;
}

/** A skill ready for the index (the store's record). */
export type Skill = SkillRecord;

/** A file discovery found: the path the walk found it at, and its real path when a symbolic link led there (read that, not the link). */
export interface FoundFile {
  file: string;
  target?: string;
}

/** A file or folder that could not be indexed, with the reason. */
export interface SkillProblem {
  file: string;
  reason: string;
}

export interface ParseResult {
  skills: ParsedSkill[];
  problems: SkillProblem[];
  /** Set when the file is not of this parser's format at all (so another parser may try it). */
  unrecognised?: string;
}

export interface ParseOptions {
  /**
   * Refuse what breaks the Agent Skills specification (an over-long description, YAML that needs repair, a
   * display name as `name`...) instead of indexing it with a warning, as agents that load such skills do.
   */
  strict?: boolean;
}

/** One parser per source format; all of them pass test/skills/parser-conformance.ts. */
export interface SkillParser {
  readonly name: string;
  /** True when this parser reads files with this base name. */
  accepts(fileName: string): boolean;
  parse(document: SkillDocument, options?: ParseOptions): ParseResult;
}
