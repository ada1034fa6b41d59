import { isRouterError } from "../errors.js";
import { asIndexError, openIndexForWrite, type IndexDatabase } from "./database.js";
import { announceLockWait } from "./lock-wait.js";

// Between tries while another process writes the index: short enough to answer soon after it commits.
const RETRY_MS = 50;

/**
 * Runs a short write on the index without ever waiting inside SQLite: a busy index (an index run holds its write lock
 * for minutes) is tried again after a pause that lets the event loop run, until `deadlineMs`; then INDEX_LOCKED. The
 * wait is announced (store/lock-wait.ts) when it begins.
 * `file` must be an index (the caller judged the feedback on it).
 */
export async function writeWhenFree<T>(file: string, work: (db: IndexDatabase) => T, deadlineMs: number): Promise<T> {
  const giveUp = performance.now() + deadlineMs;
  for (let tries = 0; ; tries++) {
    try {
      const db = openIndexForWrite(file, { waitMs: 0 });
      try {
        return work(db);
      } finally {
        db.close();
      }
    } catch (error) {
      if (!isBusy(error) || performance.now() >= giveUp) throw asIndexError(error, file);
      if (tries === 0) announceLockWait(file, deadlineMs);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

/** Another process holds the write lock: SQLite's own error, or the store's INDEX_LOCKED for it. */
function isBusy(error: unknown): boolean {
  return isRouterError(error) ? error.code === "INDEX_LOCKED" : error instanceof Error && "code" in error && /^SQLITE_BUSY/.test(String(error.code));
}
