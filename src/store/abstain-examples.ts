import type { IndexDatabase } from "./database.js";
import { blobOf } from "./vectors.js";

/** Requests no skill should answer, embedded with the index's embedder. */
export interface AbstainExamples {
  texts: string[];
  /** Row-major unit vectors, one row per text. */
  matrix: Float32Array;
}

/** The examples embedded with `embedder`; examples of another embedder are ignored (their scale differs). */
export function readAbstainExamples(db: IndexDatabase, embedder: string | null, dimension: number): AbstainExamples {
  const rows = db.prepare("SELECT text, vector FROM abstain_examples WHERE embedder = ? ORDER BY id").all(embedder ?? "") as { text: string; vector: Buffer }[];
  const usable = rows.filter((row) => row.vector.byteLength === dimension * 4);
  const matrix = new Float32Array(usable.length * dimension);
  usable.forEach((row, index) => matrix.set(new Float32Array(row.vector.buffer, row.vector.byteOffset, dimension), index * dimension));
  return { texts: usable.map((row) => row.text), matrix };
}

/** Replaces every abstain example (fit learns the whole set at once). */
export function replaceAbstainExamples(db: IndexDatabase, embedder: string, examples: { text: string; vector: Float32Array }[]): void {
  db.prepare("DELETE FROM abstain_examples").run();
  const insert = db.prepare("INSERT OR IGNORE INTO abstain_examples (text, embedder, vector) VALUES (?, ?, ?)");
  for (const example of examples) insert.run(example.text, embedder, blobOf(example.vector));
}
