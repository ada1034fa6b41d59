import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { runIndex, type IndexProgress } from "../indexer/run-index.js";
import type { ModelSettings } from "../models/model-settings.js";

export interface EvalIndex {
  db: string;
  /** Skills embedded by this call: 0 when the cached index was already up to date. */
  embedded: number;
  durationMs: number;
}

/**
 * An index of the skills an eval-set file carries, cached by the file's path and content: a re-run finds it
 * built and the index run only confirms nothing changed, then measures its evidence floor again (seconds), so an
 * eval scores the router's current code. Older copies for the same file name are removed.
 */
export async function indexEvalSet(file: string, cacheDir: string, models?: Partial<ModelSettings>, onProgress?: (event: IndexProgress) => void): Promise<EvalIndex> {
  const resolved = path.resolve(file);
  const key = createHash("sha256").update(resolved).update("\u0000").update(readFileSync(resolved)).digest("hex").slice(0, 16);
  const stem = path.basename(resolved, path.extname(resolved));
  const db = path.join(cacheDir, `${stem}-${key}.db`);
  removeOlderCopies(cacheDir, stem, path.basename(db));
  const summary = await runIndex({ paths: [resolved], db, recalibrate: true, ...(models ? { models } : {}), ...(onProgress ? { onProgress } : {}) });
  return { db, embedded: summary.embedded, durationMs: summary.durationMs };
}

function removeOlderCopies(cacheDir: string, stem: string, keep: string): void {
  let names: string[];
  try {
    names = readdirSync(cacheDir);
  } catch {
    return;
  }
  const copy = new RegExp(`^${stem.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-[0-9a-f]{16}\\.db(?:-wal|-shm)?$`);
  for (const name of names) if (copy.test(name) && !name.startsWith(keep)) rmSync(path.join(cacheDir, name), { force: true });
}
