import { statSync } from "node:fs";
import { asIndexError, openIndexForRead, type IndexDatabase } from "../store/database.js";
import { paramsFor } from "./index-params.js";
import type { RoutingParams } from "./routing-params.js";
import { lexicalIndex, type LexicalIndex } from "./lexical-index.js";
import type { Retriever, RetrieverFactory } from "./retriever.js";
import { yieldToRequests } from "./yield-to-requests.js";
import { loadRouteModel, type RouteModel } from "./route-model.js";

/** Everything derived from one index version, swapped as a whole so a request never sees two versions. */
export interface Snapshot {
  model: RouteModel;
  lexical: LexicalIndex;
  retrievers: Retriever[];
  params: RoutingParams;
  /** Held in one read transaction: bodies and listings come from the same version as the model, even after `router index` commits. */
  db: IndexDatabase;
}

export interface SnapshotOptions {
  retrievers: RetrieverFactory[];
  /** Fusion parameters to use instead of the index's fitted (or the default) ones. */
  params?: RoutingParams;
}

/** The current snapshot of an index file, replaced when another process commits a new version. */
export interface SnapshotHolder {
  current(): Snapshot;
  /** Runs work on the current snapshot; a snapshot replaced meanwhile stays open until its last user is done. */
  use<T>(work: (snapshot: Snapshot) => Promise<T>): Promise<T>;
  /**
   * Loads a newly committed version (true when it did); only a stat when the file has not changed. `check` may refuse
   * it. The load yields to the event loop as it goes, requests meanwhile use the current version, and calls made
   * during a load share it.
   */
  refresh(check?: (next: Snapshot) => void): Promise<boolean>;
  close(): void;
}

interface Held {
  snapshot: Snapshot;
  /** The meta table when loaded; any change (an index run, `router fit`) means a reload. */
  stamp: string;
  /** Requests using this snapshot now; a replaced snapshot's connection closes when the last one ends. */
  users: number;
  retired: boolean;
}

/** Opens the index file's current version. */
export async function holdSnapshot(file: string, options: SnapshotOptions): Promise<SnapshotHolder> {
  // Taken before the first read, so a version committed while loading is still noticed.
  let seenFile = fileSignature(file);
  let held = (await load(file, options, undefined))!;
  let loading: Promise<boolean> | undefined;
  let closed = false;
  const reload = async (check?: (next: Snapshot) => void): Promise<boolean> => {
    const signature = fileSignature(file);
    if (signature === seenFile) return false;
    // A version that fails to load is tried again only when the file changes again.
    seenFile = signature;
    const next = await load(file, options, held.stamp, check);
    if (!next) return false;
    if (closed) {
      next.snapshot.db.close();
      return false;
    }
    retire(held);
    held = next;
    return true;
  };
  return {
    current: () => held.snapshot,
    async use(work) {
      const mine = held;
      mine.users++;
      try {
        return await work(mine.snapshot);
      } finally {
        mine.users--;
        if (mine.retired && mine.users === 0) mine.snapshot.db.close();
      }
    },
    refresh(check) {
      loading ??= reload(check).finally(() => (loading = undefined));
      return loading;
    },
    close() {
      closed = true;
      retire(held);
    },
  };
}

/** A read connection inside one transaction, pinned to the version committed when it first read; undefined when that is `unchangedFrom`. */
async function load(file: string, options: SnapshotOptions, unchangedFrom: string | undefined, check?: (snapshot: Snapshot) => void): Promise<Held | undefined> {
  const db = openIndexForRead(file);
  try {
    db.exec("BEGIN");
    const stamp = JSON.stringify(db.prepare("SELECT key, value FROM meta ORDER BY key").all());
    if (stamp === unchangedFrom) {
      db.close();
      return undefined;
    }
    const snapshot = await snapshotOf(db, options);
    check?.(snapshot);
    return { snapshot, stamp, users: 0, retired: false };
  } catch (error) {
    db.close();
    throw asIndexError(error, file);
  }
}

/**
 * Everything routing needs from an index as `db` reads it now (the caller holds the transaction that pins it). The load
 * yields to the event loop as it goes.
 */
export async function snapshotOf(db: IndexDatabase, options: SnapshotOptions): Promise<Snapshot> {
  const pause = yieldToRequests();
  const model = await loadRouteModel(db, pause);
  // Building the lexical index and each retriever takes milliseconds at scale: the event loop gets a turn between them.
  await pause();
  const lexical = lexicalIndex(model.lexical, model.skills.length);
  const retrievers: Retriever[] = [];
  for (const create of options.retrievers) {
    await pause();
    retrievers.push(create({ model, lexical }));
  }
  return { model, lexical, retrievers, params: options.params ?? paramsFor(db, model.embedder), db };
}

function retire(held: Held): void {
  held.retired = true;
  if (held.users === 0) held.snapshot.db.close();
}

/** The index file and its WAL as stat sees them: a commit by `router index` or `router fit` always changes the WAL's size or time. */
function fileSignature(file: string): string {
  return [file, `${file}-wal`]
    .map((part) => {
      const stat = statSync(part, { throwIfNoEntry: false });
      return stat ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}` : "-";
    })
    .join("|");
}
