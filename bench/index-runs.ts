// Index throughput: a first run into an empty index, then a second run with nothing changed.
// Usage: npx tsx bench/index-runs.ts [path...]   (default: ../shared/corpus/skills ../shared/corpus/tools)
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runIndex } from "../src/indexer/run-index.js";

const targets = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["../shared/corpus/skills", "../shared/corpus/tools"];
const rows: string[] = ["| path | skills | invalid | first run (s) | second run (s) | second / first | index size (MB) |", "|---|---|---|---|---|---|---|"];
for (const target of targets) {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-index-"));
  const db = path.join(dir, "router.db");
  const first = await runIndex({ paths: [target], db });
  const second = await runIndex({ paths: [target], db });
  if (second.unchanged !== first.skills) throw new Error(`second run changed something: ${JSON.stringify(second)}`);
  const size = statSync(db).size / 1024 / 1024;
  rows.push(`| ${target} | ${first.skills} | ${first.invalid.length} | ${(first.durationMs / 1000).toFixed(1)} | ${(second.durationMs / 1000).toFixed(2)} | ${(second.durationMs / first.durationMs).toFixed(3)} | ${size.toFixed(1)} |`);
  rmSync(dir, { recursive: true, force: true });
}
console.log(rows.join("\n"));
