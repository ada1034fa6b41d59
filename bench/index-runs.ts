// Index throughput on the full corpora: a first run into an empty index (read, expand, embed, write), then a
// second run with nothing changed, which must report everything unchanged.
// Usage: npx tsx bench/index-runs.ts [path...]   (default: ../shared/corpus/skills ../shared/corpus/tools)
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runIndex } from "../src/indexer/run-index.js";
import { openIndexForRead } from "../src/store/database.js";
import { countVectors } from "../src/store/vectors.js";

const targets = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["../shared/corpus/skills", "../shared/corpus/tools"];
const rows = [
  "| path | skills | invalid | texts embedded | first run (s) | skills/s | texts/s | second run (s) | second / first | index size (MB) | peak RSS (MB) |",
  "|---|---|---|---|---|---|---|---|---|---|---|",
];
for (const target of targets) {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-index-"));
  const db = path.join(dir, "router.db");
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 500);
  const first = await runIndex({ paths: [target], db });
  const second = await runIndex({ paths: [target], db });
  clearInterval(sampler);
  if (second.unchanged !== first.skills || second.embedded !== 0) throw new Error(`second run changed something: ${JSON.stringify(second)}`);
  const index = openIndexForRead(db);
  const texts = countVectors(index);
  index.close();
  const seconds = first.durationMs / 1000;
  rows.push(
    `| ${target} | ${first.skills} | ${first.invalid.length} | ${texts} | ${seconds.toFixed(1)} | ${(first.skills / seconds).toFixed(1)} | ${(texts / seconds).toFixed(0)} | ${(second.durationMs / 1000).toFixed(2)} | ${(second.durationMs / first.durationMs).toFixed(4)} | ${(statSync(db).size / 1024 / 1024).toFixed(1)} | ${(peakRss / 1024 / 1024).toFixed(0)} |`,
  );
  rmSync(dir, { recursive: true, force: true });
}
console.log(rows.join("\n"));
