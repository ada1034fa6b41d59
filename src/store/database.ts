import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { createError } from "../errors.js";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.js";

export type IndexDatabase = Database.Database;

/** Opens an index for writing, creating the file and running migrations as needed. */
export function openIndexForWrite(file: string): IndexDatabase {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = connect(file, false);
  // WAL lets a running server keep reading the previous index while a long index run writes the next one.
  db.pragma("journal_mode = WAL");
  migrate(db);
  return db;
}

/** Opens an existing index for reading; clear errors for a missing, foreign, damaged, older or newer file. */
export function openIndexForRead(file: string): IndexDatabase {
  if (!existsSync(file)) throw createError("INDEX_NOT_FOUND", `No index at ${file}: run \`router index <path>\` first`, { file });
  const db = connect(file, true);
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version === 0) {
    db.close();
    throw createError("INDEX_CORRUPT", `${file} is not a skill-router index`, { file });
  }
  if (version < SCHEMA_VERSION) {
    db.close();
    throw createError("INDEX_OUTDATED", `${file} has schema version ${version}, this skill-router needs ${SCHEMA_VERSION}: run \`router index\` again`, { file });
  }
  return db;
}

function connect(file: string, readonly: boolean): IndexDatabase {
  try {
    return checked(file, () => new Database(file, { readonly, fileMustExist: readonly }));
  } catch (error) {
    // A WAL index in a folder this process cannot write (a read-only mount) cannot get its -shm file: read a copy into memory.
    if (readonly && /^SQLITE_(READONLY_DIRECTORY|CANTOPEN)/.test(sqliteCode(error))) return checked(file, () => new Database(walFreeImage(file), { readonly: true }));
    throw error;
  }
}

function checked(file: string, open: () => IndexDatabase): IndexDatabase {
  let db: IndexDatabase | undefined;
  try {
    db = open();
    db.pragma("busy_timeout = 5000");
    db.pragma("foreign_keys = ON");
    // Reading the schema touches the file header: a foreign or truncated file fails here, not later.
    db.prepare("SELECT count(*) FROM sqlite_master").get();
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > SCHEMA_VERSION) throw createError("INDEX_TOO_NEW", `${file} has schema version ${version}; this skill-router knows up to ${SCHEMA_VERSION}`, { file });
    return db;
  } catch (error) {
    db?.close();
    throw asIndexError(error, file);
  }
}

/** The file's bytes, a WAL-mode header (bytes 18-19) marked as rollback-journal: an in-memory copy cannot use WAL. */
function walFreeImage(file: string): Buffer {
  const image = readFileSync(file);
  if (image[18] === 2 && image[19] === 2) image.fill(1, 18, 20);
  return image;
}

/** SQLite's "damaged or not a database" errors as INDEX_CORRUPT, however late they surface; other errors as they are. */
export function asIndexError(error: unknown, file: string): unknown {
  if (!/^SQLITE_(NOTADB|CORRUPT)/.test(sqliteCode(error))) return error;
  return createError("INDEX_CORRUPT", `${file} is damaged or not a SQLite file (${(error as Error).message}): rebuild it with \`router index\` or restore a copy`, { file });
}

function sqliteCode(error: unknown): string {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : "";
}

function migrate(db: IndexDatabase): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  for (let next = version; next < SCHEMA_VERSION; next++) {
    db.transaction(() => {
      MIGRATIONS[next]!(db);
      db.pragma(`user_version = ${next + 1}`);
    })();
  }
  // A migration that dropped much (the sqlite-vec table) leaves free pages: VACUUM gives them back to the file system.
  const free = db.pragma("freelist_count", { simple: true }) as number;
  if (version < SCHEMA_VERSION && free > (db.pragma("page_count", { simple: true }) as number) / 4) db.exec("VACUUM");
}
