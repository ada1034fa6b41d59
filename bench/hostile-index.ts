// How long one hostile skill file holds up `router index`: files at the size and nesting limits must index (or be
// refused) in about a second, never stall the run. The embedder and token ranks are loaded once, outside the timings.
// Usage: npx tsx bench/hostile-index.ts
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runIndex } from "../src/indexer/run-index.js";
import { createEmbedder } from "../src/models/create-embedder.js";
import { MAX_FRONTMATTER_BYTES, MAX_JSON_FILE_BYTES, MAX_MANIFEST_FILE_BYTES, MAX_NESTING_DEPTH, MAX_SKILL_FILE_BYTES } from "../src/skills/limits.js";
import { countTokens } from "../src/text/token-count.js";
import { openIndexForRead } from "../src/store/database.js";
import { listSkills } from "../src/store/skill-rows.js";

interface HostileCase {
  label: string;
  /** Writes the case into an empty folder; returns the file written. */
  write: (folder: string) => string;
}

const FRONTMATTER = "---\nname: hostile\ndescription: A skill whose body is one unbroken run.\n---\n";

const KiB = 1024;
const MiB = 1024 * KiB;
// Every `: ` in a plain YAML value is an error (the parser's slowest input); the recovery reads such values as text.
const YAML_BREAKING = "Use when: the user asks: ";

/** `unit` repeated to fill `bytes` (whole units only). */
function fill(unit: string, bytes: number): string {
  return unit.repeat(Math.floor(bytes / Buffer.byteLength(unit)));
}

/** A SKILL.md of exactly the size limit whose body repeats `unit` (one character: an unbroken run). */
function unbrokenSkill(unit: string, frontmatter = FRONTMATTER): (folder: string) => string {
  return (folder) => write(path.join(folder, "hostile", "SKILL.md"), frontmatter + fill(unit, MAX_SKILL_FILE_BYTES - Buffer.byteLength(frontmatter)));
}

/** Frontmatter whose description is `bytes` of YAML-breaking text. */
function breakingFrontmatter(bytes: number): string {
  return `---\nname: hostile\ndescription: ${fill(YAML_BREAKING, bytes - 40)}\n---\n`;
}

/** A tool whose parameter schema nests `depth` levels below the file's top-level object. */
function nestedTool(depth: number): (folder: string) => string {
  const schema = `${'{"type":"object","properties":{"a":'.repeat(depth / 2 - 1)}{"type":"string"}${"}}".repeat(depth / 2 - 1)}`;
  return (folder) => write(path.join(folder, "tools.json"), `{"name":"nested","description":"A tool nested ${depth} levels deep","parameters":${schema}}`);
}

const CASES: HostileCase[] = [
  { label: "SKILL.md, 1 MiB of one letter", write: unbrokenSkill("x") },
  { label: "SKILL.md, 1 MiB of Chinese without punctuation", write: unbrokenSkill("中") },
  { label: "SKILL.md, 1 MiB of short Chinese lines", write: unbrokenSkill("使用场景：部署\n") },
  { label: "SKILL.md, 1 MiB of emoji", write: unbrokenSkill("😀") },
  { label: "SKILL.md, 1 MiB of code fences", write: unbrokenSkill("```\n") },
  { label: `SKILL.md, 1 MiB of \`: \`, frontmatter of \`: \` at its ${MAX_FRONTMATTER_BYTES / KiB} KiB limit`, write: unbrokenSkill(": ", breakingFrontmatter(MAX_FRONTMATTER_BYTES)) },
  { label: "SKILL.md, 1 MiB of frontmatter of `: `", write: (folder) => write(path.join(folder, "hostile", "SKILL.md"), `${breakingFrontmatter(MAX_SKILL_FILE_BYTES)}body`) },
  {
    label: `router-manifest.yaml, ${MAX_MANIFEST_FILE_BYTES / KiB} KiB of \`: \` (its limit)`,
    write: (folder) => {
      write(path.join(folder, "hostile", "SKILL.md"), `${FRONTMATTER}body`);
      return write(path.join(folder, "hostile", "router-manifest.yaml"), `queries:\n${fill(`  - ${YAML_BREAKING}\n`, MAX_MANIFEST_FILE_BYTES - 10)}`);
    },
  },
  {
    label: `tool JSON, one tool and ${(MAX_JSON_FILE_BYTES / MiB).toFixed(0)} MiB of other data (the file limit)`,
    write: (folder) => write(path.join(folder, "tools.json"), `{"tools":[{"name":"small","description":"A small tool.","parameters":{}}],"notes":"${fill("x", MAX_JSON_FILE_BYTES - 200)}"}`),
  },
  {
    label: "tool JSON, one tool with a 60 MiB schema (under the file limit)",
    write: (folder) => {
      const property = `"p":{"type":"string","description":"${"x".repeat(60)}"}`;
      const properties = Array.from({ length: Math.floor((56 * MiB) / property.length) }, (_, n) => property.replace('"p"', `"p${n}"`)).join(",");
      return write(path.join(folder, "tools.json"), `{"name":"wide","description":"A tool with a huge schema.","parameters":{"type":"object","properties":{${properties}}}}`);
    },
  },
  { label: `tool JSON nested ${MAX_NESTING_DEPTH} levels (the limit)`, write: nestedTool(MAX_NESTING_DEPTH) },
  { label: `tool JSON nested ${MAX_NESTING_DEPTH + 2} levels`, write: nestedTool(MAX_NESTING_DEPTH + 2) },
  { label: "tool JSON nested 5,000 levels", write: nestedTool(5_000) },
  { label: "tool JSON nested 100,000 levels", write: nestedTool(100_000) },
];

function write(file: string, content: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

const embedder = await createEmbedder();
// Loaded once per process, outside the timings, like the embedder: the token ranks (about half a second).
countTokens("warm up");
const rows = ["| case | bytes | seconds | outcome |", "|---|---|---|---|"];
let slowest = 0;
try {
  for (const hostile of CASES) {
    const dir = mkdtempSync(path.join(tmpdir(), "bench-hostile-"));
    const file = hostile.write(path.join(dir, "skills"));
    const db = path.join(dir, "router.db");
    const summary = await runIndex({ paths: [path.join(dir, "skills")], db, embedder, allowEmpty: true });
    const index = openIndexForRead(db);
    const indexed = listSkills(index);
    index.close();
    const ignored = summary.warnings.filter((warning) => warning.reason.endsWith("; ignored")).map((warning) => warning.reason);
    const outcome =
      indexed.length > 0
        ? `indexed, ${indexed[0]!.tokens.toLocaleString("en-US")} tokens${ignored.length > 0 ? `; ${ignored.join("; ")}` : ""}`
        : `refused: ${summary.invalid.map((problem) => problem.reason).join("; ")}`;
    slowest = Math.max(slowest, summary.durationMs);
    rows.push(`| ${hostile.label} | ${statSync(file).size.toLocaleString("en-US")} | ${(summary.durationMs / 1000).toFixed(2)} | ${outcome} |`);
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  await embedder.close();
}
console.log(rows.join("\n"));
console.log(`\nSlowest case: ${(slowest / 1000).toFixed(2)} s (target: any file within the size limits indexes, or is refused, in 2 s or less).`);
