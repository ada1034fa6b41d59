import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

// Windows has no O_NOFOLLOW; creating symbolic links there needs rights an unprivileged skill author lacks.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

export type RegularFileRead = { content: Buffer } | { refused: "not-regular" | "symbolic-link" } | { refused: "too-large"; size: number };

/**
 * Reads a file only if it is a regular file within the limit. Discovery already skips FIFOs and devices, but a
 * file may be swapped between a check and a read (`serve --watch` reads folders while they change), so the file
 * is opened without blocking and checked on the open handle: reading a FIFO would block forever. Nor is a
 * symbolic link followed: discovery resolved every link it allowed, and a link put in a file's place since may lead
 * anywhere (or loop), so it is refused as one.
 */
export async function readRegularFile(file: string, limit: number): Promise<RegularFileRead> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | NO_FOLLOW);
  } catch (error) {
    // O_NOFOLLOW's answer for a link (POSIX), which is also what a loop answers.
    if ((error as NodeJS.ErrnoException).code === "ELOOP") return { refused: "symbolic-link" };
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { refused: "not-regular" };
    if (stats.size > limit) return { refused: "too-large", size: stats.size };
    return { content: await handle.readFile() };
  } finally {
    await handle.close();
  }
}

/** What a file refused for other than its size is, said the same for every file read. */
export function refusalReason(refused: "not-regular" | "symbolic-link"): string {
  return refused === "not-regular" ? "not a regular file" : "a symbolic link where the walk found a file (put there since, or a loop)";
}
