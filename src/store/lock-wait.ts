/** Told that a write waits for another process's lock on the index, before the wait: `file`, and the longest it waits. */
export type LockWaitListener = (file: string, waitMs: number) => void;

// One per process: the CLI says the wait on stderr; a program using the library hears of it only if it listens.
let listener: LockWaitListener | undefined;

export function listenForLockWaits(next: LockWaitListener | undefined): void {
  listener = next;
}

export function announceLockWait(file: string, waitMs: number): void {
  listener?.(file, waitMs);
}
