export type SkillKind = "skill" | "tool";

export type SkillFormat =
  | "agent-skill" // SKILL.md with YAML frontmatter (agentskills.io)
  | "skill-md" // lowercase skill.md folder, frontmatter optional
  | "openai-function" // {"type":"function","function":{...}}
  | "bare-function" // {name, description, parameters}
  | "mcp-tool" // an entry of an MCP tools/list result
  | "eval-set"; // a skill of a labelled evaluation set (../shared/eval format)

export interface SkillMetadata {
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  allowedTools?: string[];
  /** Files under scripts/, references/ and assets/, relative to the skill folder; listed, never read. */
  supportingFiles?: string[];
  /** skill.md folders: modules/<name>/module.json files, relative to the skill folder. */
  modules?: string[];
  /** Tools: the JSON schema of the arguments. */
  parameters?: unknown;
  /** Tools: the name the agent calls (the routing name may carry a server prefix). */
  toolName?: string;
  /** MCP tools: the server the tool belongs to. */
  server?: string;
  /** Eval-set skills: the example user requests shipped with the set. */
  exampleQueries?: string[];
  /** A hand-written routing manifest found beside the skill (see skills/manifest-file.ts); checked at expansion. */
  manifestFile?: { file: string; content: unknown };
}

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

/** What a parser extracts from a document, before the indexer adds id, hash and token count. */
export interface ParsedSkill {
  name: string;
  kind: SkillKind;
  format: SkillFormat;
  description: string;
  /** Markdown body (skills) or the tool definition as JSON (tools). */
  body: string;
  /**
   * What would be injected into the agent's context, with the skill's folder left unnamed: the index stores no
   * absolute path, and names the folder where it is served (store/skill-location.ts).
   */
  injection: string;
  /** Where the skill is: where it was read while indexing; where it is served when read from the index. */
  sourcePath: string;
  metadata: SkillMetadata;
  warnings: string[];
}

export interface Skill extends ParsedSkill {
  /** Stable across runs: derived from kind and name, which are unique in an index. */
  id: string;
  /** The folder of the indexed root that holds the skill: the path given to `router index`, or the folder of a file given. */
  root: string;
  /** `sourcePath` relative to `root`, `/`-separated (`pdf/SKILL.md`, `tools.json#/0`, `a.zip!/pdf/SKILL.md`): what the index stores. */
  relativePath: string;
  /** sha256 of everything that affects routing or injection. */
  contentHash: string;
  /** Tokens the injection costs (see skills/token-count.ts for the tokenizer). */
  tokens: number;
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
