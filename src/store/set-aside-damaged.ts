import { existsSync, renameSync } from "node:fs";
import Database from "better-sqlite3";
import { isRouterError } from "../errors.js";
import type { IndexDatabase } from "./database.js";
import { checkIndexIntegrity } from "./index-integrity.js";

export interface SetAside {
  /** What SQLite found wrong with the file. */
  problem: string;
  /** Where the damaged file went (its -wal and -shm beside it, suffixed the same). */
  movedTo: string;
}

/**
 * Moves a damaged index file aside as `<file>.corrupt-<time>`, with its -wal and -shm, so that an index run builds the
 * index anew instead of writing on damage, and nothing is lost. Undefined when the file is sound, absent, or cannot be
 * opened for another reason (opening it to write then says why).
 */
export function setAsideDamagedIndex(file: string): SetAside | undefined {
  if (!existsSync(file)) return undefined;
  const problem = damageOf(file);
  if (problem === undefined) return undefined;
  const movedTo = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  for (const suffix of ["", "-wal", "-shm"]) if (existsSync(file + suffix)) renameSync(file + suffix, movedTo + suffix);
  return { problem, movedTo };
}

/** What SQLite finds wrong with the file when it finds damage (or no database at all), else undefined. */
function damageOf(file: string): string | undefined {
  let db: IndexDatabase | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    checkIndexIntegrity(db, file);
    return undefined;
  } catch (error) {
    return isRouterError(error) && error.code === "INDEX_CORRUPT" ? (error.details!.problems as string[]).join("; ") : undefined;
  } finally {
    db?.close();
  }
}
