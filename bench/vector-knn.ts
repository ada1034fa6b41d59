// sqlite-vec exact KNN (k = 50) over 512-d USE-lite vectors: latency at 20k and 200k rows for float32, int8
// and bit columns (a plain JS scan as the in-memory baseline), and what int8 / bit cost in accuracy on real
// vectors: recall@10 against float32, and MetaTool query-to-query routing accuracy.
// Usage: npx tsx bench/vector-knn.ts [--rows 20000] [--scale 10] [--queries 50]
// Vectors of the real texts are cached in bench/.cache/ (embedding 20k texts takes a few minutes).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { createUseLiteEmbedder } from "../src/models/use-lite-embedder.js";

const { values: args } = parseArgs({ options: { rows: { type: "string", default: "20000" }, scale: { type: "string", default: "10" }, queries: { type: "string", default: "50" } } });
const ROWS = Number(args.rows);
const DIMENSION = 512;
const K = 50;
// Candidates the bit (binary) coarse stage passes to exact rescoring; its cost grows with k in sqlite-vec.
const COARSE_KS = [100, 250];

interface Eval {
  skills: { name: string; description: string; queries?: string[] }[];
  cases: { query: string; expected: string | null }[];
}
const metatool = JSON.parse(readFileSync("../shared/eval/metatool.json", "utf8")) as Eval;

// Stored texts: MetaTool's example queries first (routing accuracy needs them), then real tool descriptions.
const stored: { text: string; skill: string | null }[] = metatool.skills.flatMap((skill) => (skill.queries ?? []).map((text) => ({ text, skill: skill.name })));
const smithery = JSON.parse(readFileSync("../shared/corpus/tools/mcp-smithery.json", "utf8")) as { servers: { tools?: { description?: string }[] }[] };
const seal = JSON.parse(readFileSync("../shared/corpus/tools/seal-tools.json", "utf8")) as { function: { description?: string } }[];
const clinc = JSON.parse(readFileSync("../shared/eval/clinc150.json", "utf8")) as Eval;
const fillers = [
  ...smithery.servers.flatMap((server) => server.tools ?? []).map((tool) => tool.description ?? ""),
  ...seal.map((tool) => tool.function.description ?? ""),
  ...clinc.skills.flatMap((skill) => skill.queries ?? []),
].filter((text) => text.trim().length > 0);
for (const text of fillers) if (stored.length < ROWS) stored.push({ text, skill: null });
const queries = metatool.cases.filter((item) => item.expected !== null);

const cacheDir = path.join("bench", ".cache");
mkdirSync(cacheDir, { recursive: true });
const matrix = await cachedEmbeddings(
  path.join(cacheDir, `knn-stored-${stored.length}.f32`),
  stored.map((item) => item.text),
);
const queryMatrix = await cachedEmbeddings(
  path.join(cacheDir, `knn-queries-${queries.length}.f32`),
  queries.map((item) => item.query),
);

const dir = mkdtempSync(path.join(tmpdir(), "bench-knn-"));
const db = new Database(path.join(dir, "vectors.db"));
sqliteVec.load(db);
db.pragma("journal_mode = WAL");
// One global scale maps the largest component to 127: int8 keeps as much of each vector as a single scale can.
const int8Scale = 127 / maxAbs(matrix);

const sizes = [stored.length, stored.length * Number(args.scale)];
const latencyRows = ["| rows | column | bytes / vector | median (ms) | p90 (ms) | vs float32 |", "|---|---|---|---|---|---|"];
for (const rows of sizes) {
  const vectors = rows === stored.length ? matrix : noisyCopies(matrix, rows);
  const tables = buildTables(rows, vectors);
  const timings = new Map<string, number[]>(Object.keys(tables).map((name) => [name, []]));
  timings.set("js-scan", []);
  for (let q = 0; q < Number(args.queries); q++) {
    const query = queryMatrix.subarray(q * DIMENSION, (q + 1) * DIMENSION);
    for (const [name, search] of Object.entries(tables)) timings.get(name)!.push(timed(() => search(query)));
    timings.get("js-scan")!.push(timed(() => jsScan(vectors, query, K)));
  }
  const base = median(timings.get("float32")!);
  const bytes: Record<string, string> = { float32: `${DIMENSION * 4}`, int8: `${DIMENSION}`, bit: `${DIMENSION / 8}`, "js-scan": `${DIMENSION * 4} (in memory)` };
  for (const [name, values] of timings) {
    latencyRows.push(
      `| ${rows.toLocaleString("en")} | ${name} | ${bytes[name] ?? `${DIMENSION / 8} + ${DIMENSION * 4}`} | ${median(values).toFixed(1)} | ${percentile(values, 0.9).toFixed(1)} | ${(median(values) / base).toFixed(2)}x |`,
    );
  }
}

// Accuracy on the real vectors: float32 KNN is exact, so it is the reference.
const real = buildTables(stored.length, matrix, "accuracy");
const accuracyRows = ["| column | recall@10 vs float32 | MetaTool q2q top-1 (nearest example query) |", "|---|---|---|"];
const exact = queries.map((_, q) => real.float32!(queryMatrix.subarray(q * DIMENSION, (q + 1) * DIMENSION)));
for (const [name, search] of Object.entries(real)) {
  let recall = 0;
  let correct = 0;
  queries.forEach((item, q) => {
    const hits = search(queryMatrix.subarray(q * DIMENSION, (q + 1) * DIMENSION));
    const truth = new Set(exact[q]!.slice(0, 10));
    recall += hits.slice(0, 10).filter((id) => truth.has(id)).length / 10;
    const nearest = hits.map((id) => stored[id - 1]!.skill).find((skill) => skill !== null);
    if (nearest === item.expected) correct++;
  });
  accuracyRows.push(`| ${name} | ${((recall / queries.length) * 100).toFixed(1)}% | ${((correct / queries.length) * 100).toFixed(1)}% |`);
}
db.close();
const fileMb = statSync(path.join(dir, "vectors.db")).size / 1e6;
rmSync(dir, { recursive: true, force: true });

console.log(`sqlite-vec ${(sqliteVec as unknown as { version?: string }).version ?? "0.1.x"}, exact KNN k=${K}, ${args.queries} MetaTool queries per cell, interleaved across columns.`);
console.log(
  `${stored.length} real texts (MetaTool example queries + tool descriptions); the ${sizes[1]!.toLocaleString("en")}-row set adds noisy copies (cosine ~0.9 to their source). int8 scale ${int8Scale.toFixed(1)} (127 / largest component). Index file with every table: ${fileMb.toFixed(0)} MB.\n`,
);
console.log(latencyRows.join("\n"));
console.log(`\nAccuracy on the ${stored.length} real vectors, ${queries.length} MetaTool in-scope queries:\n`);
console.log(accuracyRows.join("\n"));

type Search = (query: Float32Array) => number[];

function buildTables(rows: number, vectors: Float32Array, suffix = String(rows)): Record<string, Search> {
  const names = { float32: `f32_${suffix}`, int8: `i8_${suffix}`, bit: `bit_${suffix}` };
  db.exec(`CREATE VIRTUAL TABLE ${names.float32} USING vec0(embedding float[${DIMENSION}])`);
  db.exec(`CREATE VIRTUAL TABLE ${names.int8} USING vec0(embedding int8[${DIMENSION}])`);
  db.exec(`CREATE VIRTUAL TABLE ${names.bit} USING vec0(embedding bit[${DIMENSION}])`);
  const insert = {
    float32: db.prepare(`INSERT INTO ${names.float32}(rowid, embedding) VALUES (?, ?)`),
    int8: db.prepare(`INSERT INTO ${names.int8}(rowid, embedding) VALUES (?, vec_int8(?))`),
    bit: db.prepare(`INSERT INTO ${names.bit}(rowid, embedding) VALUES (?, vec_quantize_binary(vec_f32(?)))`),
  };
  db.transaction(() => {
    for (let row = 0; row < rows; row++) {
      const vector = vectors.subarray(row * DIMENSION, (row + 1) * DIMENSION);
      const id = BigInt(row + 1);
      insert.float32.run(id, blob(vector));
      insert.int8.run(id, blob(quantise(vector)));
      insert.bit.run(id, blob(vector));
    }
  })();
  const knn = (table: string, wrap: string, k = K) => db.prepare(`SELECT rowid FROM ${table} WHERE embedding MATCH ${wrap} AND k = ${k} ORDER BY distance`).pluck();
  const queriesBy = { float32: knn(names.float32, "?"), int8: knn(names.int8, "vec_int8(?)"), bit: knn(names.bit, "vec_quantize_binary(vec_f32(?))") };
  const twoStage = COARSE_KS.map((k) => {
    const coarse = knn(names.bit, "vec_quantize_binary(vec_f32(?))", k);
    return [`bit k=${k}, float32 rescored`, (query: Float32Array) => rescore(coarse.all(blob(query)) as number[], vectors, query)] as const;
  });
  return {
    float32: (query) => queriesBy.float32.all(blob(query)) as number[],
    int8: (query) => queriesBy.int8.all(blob(quantise(query))) as number[],
    bit: (query) => queriesBy.bit.all(blob(query)) as number[],
    ...Object.fromEntries(twoStage),
  };
}

/** The two-stage search: exact float32 dot products over the coarse stage's candidates, best K kept. */
function rescore(candidates: number[], vectors: Float32Array, query: Float32Array): number[] {
  const scored = candidates.map((id) => {
    let score = 0;
    const offset = (id - 1) * DIMENSION;
    for (let d = 0; d < DIMENSION; d++) score += vectors[offset + d]! * query[d]!;
    return { id, score };
  });
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, K)
    .map((hit) => hit.id);
}

function quantise(vector: Float32Array): Int8Array {
  return Int8Array.from(vector, (value) => Math.max(-128, Math.min(127, Math.round(value * int8Scale))));
}

function blob(vector: Float32Array | Int8Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

async function cachedEmbeddings(file: string, texts: string[]): Promise<Float32Array> {
  if (existsSync(file)) return new Float32Array(readFileSync(file).buffer.slice(0));
  const embedder = await createUseLiteEmbedder();
  const out = new Float32Array(texts.length * DIMENSION);
  for (let start = 0; start < texts.length; start += 512) {
    (await embedder.embed(texts.slice(start, start + 512))).forEach((vector, index) => out.set(vector, (start + index) * DIMENSION));
    process.stderr.write(`embedded ${Math.min(start + 512, texts.length)}/${texts.length}\r`);
  }
  await embedder.close();
  writeFileSync(file, new Uint8Array(out.buffer));
  return out;
}

/** `rows` vectors: the real ones, then noisy unit-length copies of them. */
function noisyCopies(source: Float32Array, rows: number): Float32Array {
  const out = new Float32Array(rows * DIMENSION);
  out.set(source);
  let seed = 7;
  const gaussian = () => {
    // Box-Muller over a small LCG: the same copies every run.
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const u = (seed + 1) / 2147483649;
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const v = (seed + 1) / 2147483649;
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const sourceRows = source.length / DIMENSION;
  for (let row = sourceRows; row < rows; row++) {
    const from = (row % sourceRows) * DIMENSION;
    let norm = 0;
    for (let d = 0; d < DIMENSION; d++) {
      const value = source[from + d]! + 0.0214 * gaussian();
      out[row * DIMENSION + d] = value;
      norm += value * value;
    }
    norm = Math.sqrt(norm);
    for (let d = 0; d < DIMENSION; d++) out[row * DIMENSION + d]! /= norm;
  }
  return out;
}

/** The in-memory alternative: one dot product per row and a running top k (what a JS dense retriever does). */
function jsScan(vectors: Float32Array, query: Float32Array, k: number): number[] {
  const top: { row: number; score: number }[] = [];
  const rows = vectors.length / DIMENSION;
  for (let row = 0; row < rows; row++) {
    let score = 0;
    const offset = row * DIMENSION;
    for (let d = 0; d < DIMENSION; d++) score += vectors[offset + d]! * query[d]!;
    if (top.length === k && score <= top[k - 1]!.score) continue;
    let at = top.length;
    while (at > 0 && top[at - 1]!.score < score) at--;
    top.splice(at, 0, { row, score });
    if (top.length > k) top.pop();
  }
  return top.map((hit) => hit.row + 1);
}

function maxAbs(values: Float32Array): number {
  let max = 0;
  for (const value of values) max = Math.max(max, Math.abs(value));
  return max;
}

function timed(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

function median(values: number[]): number {
  return percentile(values, 0.5);
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}
