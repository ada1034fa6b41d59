// Does a product name outweigh what is asked (issue 33, item 4)? "What is the current share price of Amazon?" among
// Amazon and stock-price tools, and one candidate fix: embedding the request with its capitalised names taken out.
// Top-1 on training halves (MetaTool, MetaTool without examples, BFCL) and on trigger-dev's LLM track (a dev set) for
// the request's vector as shipped, averaged with the vector without names, and without names alone. BM25 and keywords
// read the whole request every time. Usage: npx tsx bench/product-names.ts (run `npm run bench -- --only trigger` first)
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { indexEvalSet } from "../src/eval/eval-index.js";
import { readEvalSet } from "../src/eval/eval-set.js";
import { splitCases } from "../src/eval/split.js";
import { runIndex } from "../src/indexer/run-index.js";
import { planEmbedder } from "../src/models/create-embedder.js";
import { createQueryEncoder, type QueryEncoder } from "../src/models/query-encoder.js";
import { normalise } from "../src/models/vector-math.js";
import { createRouter } from "../src/route/router.js";
import type { Case } from "./trigger-dev-eval.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const shared = path.resolve(repo, "..", "shared");
const evalCache = path.join(repo, "bench", ".cache", "eval");
const triggerDevLlm = path.join(repo, "bench", ".cache", "trigger-dev", `trigger-dev-curated-llm-${planEmbedder().id}.db`);

type Variant = "as shipped" | "names averaged out" | "names taken out";
const VARIANTS: Variant[] = ["as shipped", "names averaged out", "names taken out"];

/** The request without capitalised words past the start of a sentence ("Amazon", "GitHub"): the names it mentions. */
function withoutNames(text: string): string {
  let sentenceStart = true;
  const kept = text.split(/\s+/).filter((word) => {
    const letters = word.replace(/^[^A-Za-z]+/, "");
    const atStart = sentenceStart;
    sentenceStart = /[.!?:]$/.test(word);
    return atStart || !/^[A-Z]/.test(letters) || letters === "I" || letters.startsWith("I'");
  });
  return kept.join(" ");
}

/** The request names something: taking its names out changes it. */
function namesSomething(text: string): boolean {
  return withoutNames(text).trim() !== text.trim();
}

/** The shipped encoder with the request's vector changed as the variant says. */
function variantEncoder(base: QueryEncoder, variant: Variant): QueryEncoder {
  return {
    id: base.id,
    dimension: base.dimension,
    embedMany: (texts) => base.embedMany(texts),
    close: async () => {},
    async embedQuery(text) {
      const full = Float32Array.from(await base.embedQuery(text));
      const stripped = withoutNames(text);
      if (variant === "as shipped" || !namesSomething(text) || stripped.trim() === "") return full;
      const named = await base.embedQuery(stripped);
      const vector = variant === "names taken out" ? Float32Array.from(named) : full.map((value, at) => value + named[at]!);
      normalise(vector);
      return vector;
    },
  };
}

interface Probe {
  query: string;
  expected: string;
  candidates?: string[];
}

/** Top-1 (%) of each variant over the probes, and over those that mention a name; with `show`, each probe's top three. */
async function topOne(db: string, probes: Probe[], base: QueryEncoder, show = false): Promise<string[]> {
  const named = probes.filter((probe) => namesSomething(probe.query)).length;
  const cells: string[] = [];
  for (const variant of VARIANTS) {
    const router = await createRouter({ db, queryEncoder: variantEncoder(base, variant) });
    let right = 0;
    let rightNamed = 0;
    for (const probe of probes) {
      const { names } = await router.candidates(probe.query, probe.candidates ? { skills: probe.candidates } : {});
      const hit = names[0] === probe.expected;
      right += hit ? 1 : 0;
      if (hit && namesSomething(probe.query)) rightNamed++;
      if (show) console.error(`${variant}: ${probe.query} -> ${names.slice(0, 3).join(", ")} (expected at ${names.indexOf(probe.expected) + 1 || "none"})`);
    }
    await router.close();
    cells.push(`${((100 * right) / probes.length).toFixed(1)}% (${((100 * rightNamed) / Math.max(named, 1)).toFixed(1)}%)`);
  }
  return [`${probes.length} (${named})`, ...cells];
}

/** The MCP servers of the shared corpus that hold an Amazon or stock-price tool, indexed with heuristic manifests. */
async function amazonToolsIndex(folder: string): Promise<string> {
  const corpus = JSON.parse(readFileSync(path.join(shared, "corpus", "tools", "mcp-smithery.json"), "utf8")) as { servers: unknown[] };
  const servers = corpus.servers.filter((server) => /amazon|stock price|decodo/.test(JSON.stringify(server).toLowerCase()));
  writeFileSync(path.join(folder, "servers.json"), JSON.stringify({ servers }));
  const db = path.join(folder, "router.db");
  await runIndex({ paths: [path.join(folder, "servers.json")], db });
  return db;
}

const AMAZON_PROBES: Probe[] = [
  { query: "What is the current share price of Amazon?", expected: "parichay-pothepalli-financial-research-mcp__get_current_stock_price" },
  { query: "Search Amazon for wireless headphones", expected: "decodo-decodo-mcp-server__amazon_search_parsed" },
];

const base = await createQueryEncoder({});
const folder = mkdtempSync(path.join(tmpdir(), "product-names-"));
const rows: string[][] = [];
try {
  rows.push(["Amazon and stock-price tools (the repro)", ...(await topOne(await amazonToolsIndex(folder), AMAZON_PROBES, base, true))]);
  for (const name of ["metatool", "metatool-noexamples", "bfcl"]) {
    const file = path.join(shared, "eval", `${name}.json`);
    const { db } = await indexEvalSet(file, evalCache);
    const { train } = splitCases(readEvalSet(file).cases);
    const probes = train.flatMap((item) => (item.expected === null ? [] : [{ query: item.query, expected: item.expected, ...(item.candidates ? { candidates: item.candidates } : {}) }]));
    rows.push([`${name}, training half`, ...(await topOne(db, probes, base))]);
  }
  if (existsSync(triggerDevLlm)) {
    const cases = (JSON.parse(readFileSync(path.join(shared, "eval", "trigger-dev", "cases.json"), "utf8")) as { cases: Case[] }).cases;
    const probes = cases.flatMap((item) => (item.expected === null ? [] : [{ query: item.query, expected: item.expected }]));
    rows.push(["trigger-dev curated, LLM track (dev)", ...(await topOne(triggerDevLlm, probes, base))]);
  } else console.error(`No trigger-dev LLM index at ${triggerDevLlm}: run \`npm run bench -- --only trigger\` first`);
} finally {
  await base.close();
  rmSync(folder, { recursive: true, force: true });
}
console.log(`| set | requests (naming a product) | ${VARIANTS.map((variant) => `top-1 ${variant} (naming a product)`).join(" | ")} |`);
console.log(`|---|---|${VARIANTS.map(() => "---").join("|")}|`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
