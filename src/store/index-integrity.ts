import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { createError, isRouterError } from "../errors.js";
import { asIndexError, REBUILD_ADVICE, type IndexDatabase } from "./database.js";

// Problems named in the error: the first few say where the damage is; the rest would only lengthen it.
const LISTED_PROBLEMS = 3;
const QUICK_CHECK = `quick_check(${LISTED_PROBLEMS})`;
const BETTER_SQLITE3 = createRequire(import.meta.url).resolve("better-sqlite3");
// CommonJS run by the worker: it needs nothing of ours, so it runs the same from src/ (tsx) and dist/.
const CHECK_IN_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
try {
  const db = new (require(workerData.sqlite))(workerData.file, { readonly: true, fileMustExist: true });
  try { parentPort.postMessage({ rows: db.pragma(workerData.pragma) }); } finally { db.close(); }
} catch (error) {
  parentPort.postMessage({ error: { code: String(error.code ?? ""), message: String(error.message) } });
}`;

type CheckRow = { quick_check: string };

/**
 * Throws INDEX_CORRUPT when the file's pages are damaged. SQLite's quick_check walks every page of every table and
 * index (what the router loads at start, and the vectors and texts it reads per request): 0.2 to 0.4 s for a 129 MB
 * index (bench/damaged-index.ts). integrity_check would also compare each index with its table, for a quarter more time.
 */
export function checkIndexIntegrity(db: IndexDatabase, file: string): void {
  let rows: CheckRow[];
  try {
    rows = db.pragma(QUICK_CHECK) as CheckRow[];
  } catch (error) {
    rows = damageSaid(error, file);
  }
  refuseDamage(rows, file);
}

/**
 * The same check in a worker thread, for a server: reading a large index from disk takes seconds, and the event loop
 * keeps answering liveness probes meanwhile. A file the worker cannot open for another reason than damage (none yet,
 * a read-only folder) passes: the load that follows says what is wrong, or reads it.
 */
export function checkIndexFileOffThread(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CHECK_IN_WORKER, { eval: true, workerData: { sqlite: BETTER_SQLITE3, file, pragma: QUICK_CHECK } });
    worker.once("message", (reply: { rows: CheckRow[] } | { error: { code: string; message: string } }) => {
      try {
        refuseDamage("rows" in reply ? reply.rows : damageSaid(Object.assign(new Error(reply.error.message), { code: reply.error.code }), file), file);
        resolve();
      } catch (error) {
        // Damage only: a file the worker could not open for another reason passes.
        if (isRouterError(error) && error.code === "INDEX_CORRUPT") reject(error);
        else resolve();
      }
    });
    worker.once("error", reject);
    worker.once("exit", () => reject(createError("INTERNAL_ERROR", `The check of ${file} stopped without an answer`)));
  });
}

/** SQLite's error on reading the file as the check's answer when it says damage (the file is no database, a page is malformed); any other error is thrown as the index's. */
function damageSaid(error: unknown, file: string): CheckRow[] {
  const known = asIndexError(error, file);
  if (isRouterError(known) && known.code === "INDEX_CORRUPT") return [{ quick_check: (error as Error).message }];
  throw known;
}

function refuseDamage(rows: CheckRow[], file: string): void {
  const problems = rows
    .flatMap((row) => row.quick_check.split("\n"))
    .filter((line) => line !== "ok" && !line.startsWith("*** in database"))
    .slice(0, LISTED_PROBLEMS);
  if (problems.length > 0) throw createError("INDEX_CORRUPT", `${file} is damaged (SQLite finds: ${problems.join("; ")}): ${REBUILD_ADVICE}`, { file, problems });
}
