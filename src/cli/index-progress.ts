import type { IndexProgress } from "../indexer/run-index.js";
import { createProgress } from "./progress.js";

/**
 * One progress line per stage of an index run, each naming what it counts: reading counts files, which can hold
 * several skills each (a tool file, a zip), so it may say 11 where the skill stages say 12.
 */
export function indexProgress(enabled: boolean): { onProgress: (event: IndexProgress) => void; finish: () => void } {
  const bars = {
    read: createProgress("reading", "files", process.stderr, enabled),
    expand: createProgress("writing manifests", "skills", process.stderr, enabled),
    embed: createProgress("embedding", "skills", process.stderr, enabled),
    calibrate: createProgress("measuring the evidence floor", "routes", process.stderr, enabled),
    shares: createProgress("routing requests held out of their skills", "routes", process.stderr, enabled),
    scope: createProgress("fitting the in-scope model to requests held out of their skills", "skills", process.stderr, enabled),
    offer: createProgress("measuring offers on held-out and everyday requests", "routes", process.stderr, enabled),
  };
  return {
    onProgress: (event) => bars[event.stage].update(event.done, event.total, event.stage === "read" ? event.file : ""),
    finish: () => {
      for (const bar of Object.values(bars)) bar.finish();
    },
  };
}
