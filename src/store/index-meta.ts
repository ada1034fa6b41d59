import type { IndexDatabase } from "./database.js";

/** Facts about the index as a whole, kept in the `meta` table. */
export interface IndexMeta {
  /** Bumped by every run that changed something; servers compare it to know when to reload. */
  indexVersion: number;
  updatedAt: string | undefined;
  embedder: string | undefined;
  dimension: number | undefined;
  /** The embedding code's version the vectors were made with. */
  embedderVersion: string | undefined;
  /** sha256 of the model files the vectors were made with. */
  modelFiles: string | undefined;
  /** The version of the texts embedded per skill (what the indexer makes of a skill's description and manifest). */
  textsVersion: string | undefined;
  /** The text analyser's version when the index was last written (its evidence floor was measured with it). */
  analyserVersion: string | undefined;
  /** The paths given to `router index`, absolute, as they were on the machine that indexed them. */
  roots: string[];
}

/** An indexed path, and the folder its skills' source paths are relative to: the path itself, or the folder of a file. */
export interface IndexedRoot {
  path: string;
  folder: string;
}

export function readMeta(db: IndexDatabase): IndexMeta {
  const rows = db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[];
  const meta = new Map(rows.map((row) => [row.key, row.value]));
  const roots = db.prepare("SELECT path FROM roots ORDER BY position").pluck().all() as string[];
  return {
    indexVersion: Number(meta.get("index_version") ?? 0),
    updatedAt: meta.get("updated_at"),
    embedder: meta.get("embedder"),
    dimension: meta.has("dimension") ? Number(meta.get("dimension")) : undefined,
    embedderVersion: meta.get("embedder_version"),
    modelFiles: meta.get("model_files"),
    textsVersion: meta.get("texts_version"),
    analyserVersion: meta.get("analyser_version"),
    roots,
  };
}

/** A new index version, changed at `now`: servers reading the index reload it. */
export function bumpIndexVersion(db: IndexDatabase, now: string): number {
  const version = Number(readMetaValue(db, "index_version") ?? 0) + 1;
  writeMetaValue(db, "index_version", String(version));
  writeMetaValue(db, "updated_at", now);
  return version;
}

export function readMetaValue(db: IndexDatabase, key: string): string | undefined {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
  return row?.value;
}

export function writeMetaValue(db: IndexDatabase, key: string, value: string): void {
  db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, value);
}

/** A value stored as JSON (what `router index` or `router fit` measured), undefined when absent. */
export function readMetaJson<T>(db: IndexDatabase, key: string): T | undefined {
  const value = readMetaValue(db, key);
  return value === undefined ? undefined : (JSON.parse(value) as T);
}

export function writeMetaJson(db: IndexDatabase, key: string, value: unknown): void {
  writeMetaValue(db, key, JSON.stringify(value));
}

export function deleteMetaValue(db: IndexDatabase, key: string): void {
  db.prepare("DELETE FROM meta WHERE key = ?").run(key);
}

/** Every indexed root, by position. */
export function readRoots(db: IndexDatabase): IndexedRoot[] {
  return db.prepare("SELECT path, folder FROM roots ORDER BY position").all() as IndexedRoot[];
}

/** The folder of each indexed root, by position (a skill row names its root by position). */
export function readRootFolders(db: IndexDatabase): string[] {
  return db.prepare("SELECT folder FROM roots ORDER BY position").pluck().all() as string[];
}

export function writeRoots(db: IndexDatabase, roots: IndexedRoot[]): void {
  db.prepare("DELETE FROM roots").run();
  const insert = db.prepare("INSERT INTO roots (position, path, folder) VALUES (?, ?, ?)");
  roots.forEach((root, position) => insert.run(position, root.path, root.folder));
}
