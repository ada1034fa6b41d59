import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { createError } from "../errors.js";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.js";

export type IndexDatabase = Database.Database;

export const DEFAULT_DB_PATH = path.join("data", "router.db");

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
  let db: IndexDatabase | undefined;
  try {
    db = new Database(file, { readonly, fileMustExist: readonly });
    db.pragma("busy_timeout = 5000");
    db.pragma("foreign_keys = ON");
    sqliteVec.load(db);
    // Reading the schema touches the file header: a foreign or truncated file fails here, not later.
    db.prepare("SELECT count(*) FROM sqlite_master").get();
    const version = db.pragma("user_version", { simple: true }) as number;
    if (version > SCHEMA_VERSION) throw createError("INDEX_TOO_NEW", `${file} has schema version ${version}; this skill-router knows up to ${SCHEMA_VERSION}`, { file });
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof Error && "code" in error && typeof error.code === "string" && /^SQLITE_(NOTADB|CORRUPT)/.test(error.code)) {
      throw createError("INDEX_CORRUPT", `${file} is damaged or not a SQLite file (${error.message})`, { file });
    }
    throw error;
  }
}

function migrate(db: IndexDatabase): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  for (let next = version; next < SCHEMA_VERSION; next++) {
    db.transaction(() => {
      MIGRATIONS[next]!(db);
      db.pragma(`user_version = ${next + 1}`);
    })();
  }
}
