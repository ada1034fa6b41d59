import { createError, isRouterError } from "../errors.js";
import type { RouterSlot } from "./app.js";
import type { Logger } from "./logger.js";
import { recordIndex, type ServerMetrics } from "./metrics.js";

export interface IndexReloader {
  /** Swaps in a new index version when the file changed; never rejects (a failed reload keeps the old one serving). */
  check(): Promise<boolean>;
}

/** Polls cheaply: router.refresh() only stats the index until it changes; this adds the metrics and log lines of a reload. */
export function createIndexReloader(slot: RouterSlot, metrics: ServerMetrics, logger: Logger): IndexReloader {
  // A check while one runs (a poll during a watch run's reload) joins it: one reload, one log line.
  let checking: Promise<boolean> | undefined;
  const check = async (): Promise<boolean> => {
    const router = slot.router;
    if (!router || slot.draining) return false;
    const previous = router.status().indexVersion;
    const started = performance.now();
    try {
      if (!(await router.refresh())) return false;
      const seconds = (performance.now() - started) / 1000;
      const status = router.status();
      recordIndex(metrics, status, seconds);
      metrics.reloads.inc({ outcome: "success" });
      logger.info(
        { event: "reload", from_version: previous, index_version: status.indexVersion, skills: status.skills, vectors: status.vectors, fusion: status.fusion, load_ms: Math.round(seconds * 1000) },
        "index reloaded",
      );
      return true;
    } catch (error) {
      metrics.reloads.inc({ outcome: "failure" });
      const reason = isRouterError(error) ? error : createError("INTERNAL_ERROR", (error as Error).message);
      logger.error({ event: "reload", code: reason.code, err: reason.message, index_version: previous }, "index reload failed; still serving the previous version");
      return false;
    }
  };
  return {
    check() {
      checking ??= check().finally(() => (checking = undefined));
      return checking;
    },
  };
}
