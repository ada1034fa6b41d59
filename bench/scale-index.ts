import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runIndex } from "../src/indexer/run-index.js";
import { openIndexForRead } from "../src/store/database.js";
import { countTexts } from "../src/store/vectors.js";
import { indexRecipe } from "./index-recipe.js";
import { refreshRoutingData } from "./refresh-routing-data.js";
import { writeCorpus, type CorpusItem } from "./scale-corpus.js";

/** How long the first build of a sub-corpus index took, and what it holds (kept beside the cached index). */
export interface ScaleBuild {
  requested: number;
  skills: number;
  texts: number;
  seconds: number;
  skillsPerSecond: number;
  textsPerSecond: number;
  sizeMb: number;
  builtAt: string;
  /** True when this run reused an index built earlier (the figures are that build's). */
  cached: boolean;
}

/**
 * An index of the sampled items, cached in cacheDir by the content of the written corpus and its recipe:
 * a 10,000-skill build takes many minutes with the offline model, so only the first run pays for it.
 */
export async function scaleIndex(items: CorpusItem[], requested: number, cacheDir: string, fresh: boolean): Promise<{ db: string; build: ScaleBuild }> {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-scale-"));
  try {
    writeCorpus(items, dir);
    const key = createHash("sha256").update(indexRecipe()).update(treeContent(dir)).digest("hex").slice(0, 16);
    const db = path.join(cacheDir, `scale-${requested}-${key}.db`);
    const statsFile = `${db}.json`;
    if (!fresh && existsSync(db) && existsSync(statsFile)) {
      refreshRoutingData(db);
      return { db, build: { ...(JSON.parse(readFileSync(statsFile, "utf8")) as ScaleBuild), cached: true } };
    }
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${db}${suffix}`, { force: true });
    const summary = await runIndex({ paths: [dir], db });
    const seconds = summary.durationMs / 1000;
    const texts = countIndexTexts(db);
    const build: ScaleBuild = {
      requested,
      skills: summary.skills,
      texts,
      seconds,
      skillsPerSecond: summary.skills / seconds,
      textsPerSecond: texts / seconds,
      sizeMb: fileBytes(db) / 1024 / 1024,
      builtAt: new Date().toISOString(),
      cached: false,
    };
    writeFileSync(statsFile, JSON.stringify(build, null, 2));
    return { db, build };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The index file plus any write-ahead log not yet folded into it. */
function fileBytes(db: string): number {
  return [db, `${db}-wal`].reduce((sum, file) => sum + (existsSync(file) ? statSync(file).size : 0), 0);
}

function countIndexTexts(db: string): number {
  const index = openIndexForRead(db);
  try {
    return countTexts(index);
  } finally {
    index.close();
  }
}

/** Every file's relative path and bytes, in sorted order: the identity of a written corpus. */
function treeContent(dir: string): Buffer {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  return Buffer.concat(files.flatMap((file) => [Buffer.from(`${path.relative(dir, file)}\u0000`), readFileSync(file)]));
}
