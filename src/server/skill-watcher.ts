import path from "node:path";
import { watch } from "chokidar";
import type { Logger } from "./logger.js";

export interface SkillWatcher {
  close(): Promise<void>;
}

/**
 * Calls `onChange` once the skill folders have been quiet for `debounceMs` after any change. The index file
 * (`db`) may live inside a watched folder: its own writes never count as a change, or every run would start another.
 */
export function watchSkills(paths: string[], db: string, debounceMs: number, onChange: () => void, logger: Logger): SkillWatcher {
  const roots = paths.map((dir) => path.resolve(dir));
  const indexFiles = new Set(["", "-wal", "-shm", "-journal"].map((suffix) => path.resolve(db) + suffix));
  const watcher = watch(roots, { ignoreInitial: true, ignored: (file: string) => indexFiles.has(file) || skippedByIndexer(roots, file) });
  let timer: NodeJS.Timeout | undefined;
  watcher.on("all", (event, file) => {
    logger.debug({ event: "skills_changed", change: event, file }, "skill files changed");
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  });
  watcher.on("error", (error) => logger.error({ event: "watch", err: (error as Error).message }, "watching skill folders failed"));
  return {
    async close() {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}

/** Hidden entries and node_modules are never indexed, so editor swap files and installs there do not trigger a run. */
function skippedByIndexer(roots: string[], file: string): boolean {
  const root = roots.find((dir) => file === dir || file.startsWith(dir + path.sep));
  if (!root) return false;
  return path
    .relative(root, file)
    .split(path.sep)
    .some((part) => part.startsWith(".") || part === "node_modules");
}
