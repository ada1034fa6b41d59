import { statSync } from "node:fs";
import { createError, isRouterError } from "../errors.js";
import type { RouterSlot } from "./app.js";
import type { Logger } from "./logger.js";
import { recordIndex, type ServerMetrics } from "./metrics.js";

export interface IndexReloader {
  /** Remembers the file as it was before a load, so a write made during the load is still noticed. */
  remember(): string;
  loaded(signature: string): void;
  /** Swaps in a new index version when the file changed; never throws (a failed reload keeps the old one serving). */
  check(): boolean;
}

/**
 * Polls cheaply: a stat of the index and its WAL file. Only when they changed does the router open the file and
 * compare versions (a WAL commit by `router index` or `router fit` always changes the WAL's size or time).
 */
export function createIndexReloader(db: string, slot: RouterSlot, metrics: ServerMetrics, logger: Logger): IndexReloader {
  let seen = "";
  return {
    remember: () => fileSignature(db),
    loaded(signature) {
      seen = signature;
    },
    check() {
      const router = slot.router;
      if (!router || slot.draining) return false;
      const signature = fileSignature(db);
      if (signature === seen) return false;
      // Recorded before trying: a file that fails to load is retried when it changes again, not every poll.
      seen = signature;
      const previous = router.status().indexVersion;
      const started = performance.now();
      try {
        if (!router.refresh()) return false;
        const seconds = (performance.now() - started) / 1000;
        const status = router.status();
        recordIndex(metrics, status, seconds);
        metrics.reloads.inc({ outcome: "success" });
        logger.info({ event: "reload", from_version: previous, index_version: status.indexVersion, skills: status.skills, vectors: status.vectors, fusion: status.fusion, load_ms: Math.round(seconds * 1000) }, "index reloaded");
        return true;
      } catch (error) {
        metrics.reloads.inc({ outcome: "failure" });
        const reason = isRouterError(error) ? error : createError("INTERNAL_ERROR", (error as Error).message);
        logger.error({ event: "reload", code: reason.code, err: reason.message, index_version: previous }, "index reload failed; still serving the previous version");
        return false;
      }
    },
  };
}

function fileSignature(db: string): string {
  return [db, `${db}-wal`]
    .map((file) => {
      const stat = statSync(file, { throwIfNoEntry: false });
      return stat ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}` : "-";
    })
    .join("|");
}
