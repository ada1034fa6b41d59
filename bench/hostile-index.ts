// How long one hostile skill file holds up `router index`: files at the size and nesting limits must index (or be
// refused) in about a second, never stall the run. The embedder is loaded once, outside the timings.
// Usage: npx tsx bench/hostile-index.ts
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runIndex } from "../src/indexer/run-index.js";
import { createEmbedder } from "../src/models/create-embedder.js";
import { MAX_NESTING_DEPTH, MAX_SKILL_FILE_BYTES } from "../src/skills/limits.js";
import { openIndexForRead } from "../src/store/database.js";
import { listSkills } from "../src/store/skill-rows.js";

interface HostileCase {
  label: string;
  /** Writes the case into an empty folder; returns the file written. */
  write: (folder: string) => string;
}

const FRONTMATTER = "---\nname: hostile\ndescription: A skill whose body is one unbroken run.\n---\n";

/** A SKILL.md of exactly the size limit whose body repeats one character. */
function unbrokenSkill(char: string): (folder: string) => string {
  return (folder) => {
    const count = Math.floor((MAX_SKILL_FILE_BYTES - Buffer.byteLength(FRONTMATTER)) / Buffer.byteLength(char));
    return write(path.join(folder, "hostile", "SKILL.md"), FRONTMATTER + char.repeat(count));
  };
}

/** A tool whose parameter schema nests `depth` levels below the file's top-level object. */
function nestedTool(depth: number): (folder: string) => string {
  const schema = `${'{"type":"object","properties":{"a":'.repeat(depth / 2 - 1)}{"type":"string"}${"}}".repeat(depth / 2 - 1)}`;
  return (folder) => write(path.join(folder, "tools.json"), `{"name":"nested","description":"A tool nested ${depth} levels deep","parameters":${schema}}`);
}

const CASES: HostileCase[] = [
  { label: "SKILL.md, 1 MiB of one letter", write: unbrokenSkill("x") },
  { label: "SKILL.md, 1 MiB of Chinese without punctuation", write: unbrokenSkill("中") },
  { label: "SKILL.md, 1 MiB of emoji", write: unbrokenSkill("😀") },
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
const rows = ["| case | bytes | seconds | outcome |", "|---|---|---|---|"];
try {
  for (const hostile of CASES) {
    const dir = mkdtempSync(path.join(tmpdir(), "bench-hostile-"));
    const file = hostile.write(path.join(dir, "skills"));
    const db = path.join(dir, "router.db");
    const summary = await runIndex({ paths: [path.join(dir, "skills")], db, embedder, allowEmpty: true });
    const index = openIndexForRead(db);
    const indexed = listSkills(index);
    index.close();
    const outcome = indexed.length > 0 ? `indexed, ${indexed[0]!.tokens.toLocaleString("en-US")} tokens` : `refused: ${summary.invalid.map((problem) => problem.reason).join("; ")}`;
    rows.push(`| ${hostile.label} | ${statSync(file).size.toLocaleString("en-US")} | ${(summary.durationMs / 1000).toFixed(2)} | ${outcome} |`);
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  await embedder.close();
}
console.log(rows.join("\n"));
