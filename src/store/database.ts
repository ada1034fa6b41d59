import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { createError } from "../errors.js";
import { announceLockWait } from "./lock-wait.js";
import { BASELINE_VERSION, createBaselineSchema, MIGRATIONS, SCHEMA_VERSION } from "./migrations.js";

export type IndexDatabase = Database.Database;

/** Opens an index for writing, creating the file and running migrations as needed. */
export function openIndexForWrite(file: string, options: { waitMs?: number } = {}): IndexDatabase {
  refuseFolder(file);
  const folder = path.dirname(path.resolve(file));
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    throw readOnlyError(file, `cannot create its folder ${folder} (${(error as NodeJS.ErrnoException).code})`);
  }
  // SQLite opens a file it may not write read-only without a word, and fails only at the first write.
  if (!writable(folder)) throw readOnlyError(file, `its folder ${folder} is read-only (a WAL index writes its -wal and -shm files there)`);
  if (existsSync(file) && !writable(file)) throw readOnlyError(file, "the file is read-only");
  const db = connect(file, false);
  try {
    // A caller that must not block the event loop waits for the lock itself (store/write-when-free.ts).
    if (options.waitMs !== undefined) db.pragma(`busy_timeout = ${options.waitMs}`);
    // Another writer is said now, not after this run's expansion and embedding.
    probeWriteLock(db, file);
    // WAL lets a running server keep reading the previous index while a long index run writes the next one.
    db.pragma("journal_mode = WAL");
    migrate(db, file);
    return db;
  } catch (error) {
    db.close();
    throw asIndexError(error, file);
  }
}

/** Opens an existing index for reading; clear errors for a missing, foreign, damaged, older or newer file. */
export function openIndexForRead(file: string): IndexDatabase {
  if (!existsSync(file)) throw createError("INDEX_NOT_FOUND", `No index at ${file}: run \`router index <path>\` first`, { file });
  refuseFolder(file);
  const db = connect(file, true);
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version === 0) {
    db.close();
    throw createError("INDEX_CORRUPT", `${file} is not a skill-router index`, { file });
  }
  if (version < SCHEMA_VERSION) {
    const error = outdated(db, file, version);
    db.close();
    throw error;
  }
  return db;
}

/** Takes the write lock and lets it go; when another process holds it, the wait its busy timeout allows is announced first. */
function probeWriteLock(db: IndexDatabase, file: string): void {
  const waitMs = db.pragma("busy_timeout", { simple: true }) as number;
  db.pragma("busy_timeout = 0");
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (error) {
    if (waitMs === 0 || !/^SQLITE_BUSY/.test(sqliteCode(error))) throw error;
    announceLockWait(file, waitMs);
    db.pragma(`busy_timeout = ${waitMs}`);
    db.exec("BEGIN IMMEDIATE");
  } finally {
    db.pragma(`busy_timeout = ${waitMs}`);
  }
  db.exec("ROLLBACK");
}

function connect(file: string, readonly: boolean): IndexDatabase {
  try {
    return checked(file, () => new Database(file, { readonly, fileMustExist: readonly }));
  } catch (error) {
    // A WAL index in a folder this process cannot write (a read-only mount) cannot get its -shm file: read a copy into memory.
    if (!readonly || !/^SQLITE_(READONLY_DIRECTORY|CANTOPEN)/.test(sqliteCode(error))) throw asIndexError(error, file);
    try {
      return checked(file, () => new Database(walFreeImage(file), { readonly: true }));
    } catch (copyError) {
      throw asIndexError(copyError, file);
    }
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
    throw error;
  }
}

/** The file's bytes, a WAL-mode header (bytes 18-19) marked as rollback-journal: an in-memory copy cannot use WAL. */
function walFreeImage(file: string): Buffer {
  let image: Buffer;
  try {
    image = readFileSync(file);
  } catch (error) {
    throw createError("INDEX_IO_ERROR", `Cannot read ${file} (${(error as NodeJS.ErrnoException).code}): check its permissions`, { file });
  }
  if (image[18] === 2 && image[19] === 2) image.fill(1, 18, 20);
  return image;
}

function refuseFolder(file: string): void {
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
    throw createError("INDEX_NOT_A_FILE", `${file} is a folder: give the index file's path, such as ${path.join(file, "router.db")}`, { file });
  }
}

function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function readOnlyError(file: string, why: string): Error {
  return createError("INDEX_READ_ONLY", `Cannot write ${file}: ${why}. This command writes the index (a \`router index\` run records itself even when nothing changed)`, { file });
}

/**
 * SQLite's errors as the catalogue's codes, however late they surface: damage as INDEX_CORRUPT, another writer as
 * INDEX_LOCKED, a read-only file or folder as INDEX_READ_ONLY, any other file fault as INDEX_IO_ERROR; other errors as they are.
 */
export function asIndexError(error: unknown, file: string): unknown {
  const code = sqliteCode(error);
  const message = (error as Error | undefined)?.message;
  if (/^SQLITE_(NOTADB|CORRUPT)/.test(code)) {
    return createError("INDEX_CORRUPT", `${file} is damaged or not a SQLite file (${message}): ${REBUILD_ADVICE}`, { file });
  }
  if (/^SQLITE_(BUSY|LOCKED)/.test(code)) {
    return createError(
      "INDEX_LOCKED",
      `${file} is being written by another process (\`router index\`, \`router fit\` or \`router feedback apply\`, perhaps a server's): try again when it has finished`,
      { file },
    );
  }
  if (/^SQLITE_READONLY/.test(code)) return readOnlyError(file, `SQLite says ${message} (${code})`);
  if (/^SQLITE_(IOERR|CANTOPEN|FULL|PERM|AUTH|NOLFS)/.test(code)) return createError("INDEX_IO_ERROR", `Cannot use ${file}: ${message} (${code})`, { file, sqlite: code });
  return error;
}

/** What to do about a damaged index (named before it), said the same wherever the damage is found. */
export const REBUILD_ADVICE = "run `router index <paths> --db <that file>` again (it moves the damaged file aside and builds the index anew), or restore a copy";

function sqliteCode(error: unknown): string {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : "";
}

function migrate(db: IndexDatabase, file: string): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > 0 && version < BASELINE_VERSION) throw outdated(db, file, version);
  if (version === 0) {
    db.transaction(() => {
      createBaselineSchema(db);
      db.pragma(`user_version = ${BASELINE_VERSION}`);
    })();
  }
  for (let next = Math.max(version, BASELINE_VERSION); next < SCHEMA_VERSION; next++) {
    db.transaction(() => {
      MIGRATIONS[next - BASELINE_VERSION]!(db);
      db.pragma(`user_version = ${next + 1}`);
    })();
  }
}

/** An index of an older schema: one after the baseline is migrated by an index run; one before it is built anew. */
function outdated(db: IndexDatabase, file: string, version: number): Error {
  if (version >= BASELINE_VERSION) {
    return createError("INDEX_OUTDATED", `${file} has schema version ${version}, this skill-router needs ${SCHEMA_VERSION}: run \`router index\` again`, { file });
  }
  return createError(
    "INDEX_OUTDATED",
    `${file} has schema version ${version}, from before vectors were stored as rows; this skill-router reads ${BASELINE_VERSION} and later. ` +
      `Delete it and build it again: ${rebuildCommand(db, file)}`,
    { file, version },
  );
}

/** The `router index` command that rebuilds an index, with its recorded roots when the file still lists them. */
function rebuildCommand(db: IndexDatabase, file: string): string {
  let roots: string[] = [];
  try {
    roots = db.prepare("SELECT path FROM roots ORDER BY position").pluck().all() as string[];
  } catch {
    // No roots table: the paths are the user's to give.
  }
  const paths = roots.length > 0 ? roots.map(shellWord).join(" ") : "<paths>";
  return `\`router index ${paths} --db ${shellWord(file)}\``;
}

function shellWord(text: string): string {
  return /^[\w./@:+-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
