// The shapes the index holds. The store owns them so that it depends on nothing else of ours: parsers
// (src/skills) produce skill records, expanders (src/expand) produce manifests, the query path reads both.
import type { z } from "zod";
import type { manifestSchema } from "./manifest-schema.js";

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
  /** Why the skill is injected only when a request calls it by name (skills/explicit-only.ts, or `trigger: explicit` in its manifest file). */
  explicitOnly?: string;
  /** A hand-written routing manifest found beside the skill (see skills/manifest-file.ts); checked at expansion. */
  manifestFile?: { file: string; content: unknown };
}

/** What a risky-skill rule flags (skills/risk-rule-data.ts and skills/risk-scan.ts say how each is recognised). */
export type RiskRule =
  | "download-and-run"
  | "password-protected-archive"
  | "command-from-paste-site"
  | "remote-script-from-ip"
  | "pipe-to-shell"
  | "decoded-to-shell"
  | "reverse-shell"
  | "credential-exfiltration"
  | "conceal-from-user"
  | "hidden-instructions"
  | "override-instructions"
  | "hidden-characters"
  | "encoded-instructions";

/** One line of a skill's source that breaks a risk rule; the file is the skill's source path. */
export interface RiskFlag {
  rule: RiskRule;
  /** 1-based, in the skill's source file (for a tool, in its JSON file). */
  line: number;
  /** What matched, cut short. */
  excerpt: string;
}

/** A skill as the index stores and serves it. */
export interface SkillRecord {
  /** Stable across runs: derived from kind and name, which are unique in an index. */
  id: string;
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
  /** The folder of the indexed root that holds the skill: the path given to `router index`, or the folder of a file given. */
  root: string;
  /** `sourcePath` relative to `root`, `/`-separated (`pdf/SKILL.md`, `tools.json#/0`, `a.zip!/pdf/SKILL.md`): what the index stores. */
  relativePath: string;
  /** sha256 of everything that affects routing or injection. */
  contentHash: string;
  /** Tokens the injection costs (see text/token-count.ts for the tokenizer). */
  tokens: number;
  metadata: SkillMetadata;
  warnings: string[];
  /** What the risky-skill rules flagged in it, at index time; empty for most skills. */
  risks: RiskFlag[];
}

/** A skill's routing manifest, as store/manifest-schema.ts defines and checks it. */
export type Manifest = z.infer<typeof manifestSchema>;

/** Where a stored manifest came from, in order of precedence. */
export type ManifestSource = "file" | "examples" | "import" | "llm" | "heuristic";

export interface StoredManifest {
  source: ManifestSource;
  /** What the source made it from (its own version, the prompt and model, the heuristic's version): another version means it is made again. */
  version: string;
  manifest: Manifest;
}
