// Do heuristic manifests add routing signal? Top-1 accuracy of description-only retrieval against retrieval over
// description + heuristic manifest, dense (offline embedder) and lexical (plain BM25), on eval sets without
// example queries. Usage: npx tsx bench/expansion.ts [eval-set.json...] [--no-write]
// (default: ../shared/eval/metatool-noexamples.json ../shared/eval/bfcl.json; writes bench/RESULTS.md "## Expansion")
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ExpansionSubject } from "../src/expand/expansion-subject.js";
import { heuristicManifest } from "../src/expand/heuristic-expander.js";
import type { Manifest } from "../src/expand/manifest.js";
import { skillTexts } from "../src/indexer/skill-texts.js";
import { createEmbedder } from "../src/models/create-embedder.js";
import { evalSetParser } from "../src/skills/eval-set.js";
import { plainBm25 } from "./plain-bm25.js";
import { replaceSections } from "./results-file.js";

type EmbedTexts = (texts: string[]) => Promise<Float32Array[]>;

interface EvalCase {
  query: string;
  expected: string | null;
  candidates?: string[];
}

interface ExpansionFigures {
  set: string;
  skills: number;
  cases: number;
  denseDescription: number;
  denseManifest: number;
  bm25Description: number;
  bm25Manifest: number;
}

const DEFAULT_SETS = ["../shared/eval/metatool-noexamples.json", "../shared/eval/bfcl.json"];
const SECTION = "## Expansion";

/** Top-1 accuracy of the four retrievers on one eval set's in-scope cases (restricted to `candidates` when given). */
async function measureExpansion(file: string, embed: EmbedTexts): Promise<ExpansionFigures> {
  const text = readFileSync(file, "utf8");
  const parsed = evalSetParser.parse({ path: file, text, folderName: path.basename(path.dirname(file)), files: [] });
  // Example queries would stand in for a manifest: measure what the heuristic makes from the skill alone.
  const skills = parsed.skills.map((skill) => ({ ...skill, metadata: { ...skill.metadata, exampleQueries: undefined } }));
  const manifests: Manifest[] = skills.map((skill) => heuristicManifest({ ...skill, id: skill.name, contentHash: "" } satisfies ExpansionSubject));
  const descriptions = skills.map((skill, index) => skillTexts(skill, manifests[index]!)[0]!.text);
  const cases = (JSON.parse(text) as { cases: EvalCase[] }).cases.filter((entry): entry is EvalCase & { expected: string } => entry.expected !== null);
  const position = new Map(skills.map((skill, index) => [skill.name, index]));

  const queryVectors = await embed(cases.map((entry) => entry.query));
  const descriptionVectors = await embed(descriptions);
  const manifestVectors = await embed(manifests.flatMap((manifest) => manifest.queries));
  const manifestOwner = manifests.flatMap((manifest, index) => manifest.queries.map(() => index));
  const bm25Description = plainBm25(descriptions);
  const bm25Manifest = plainBm25(descriptions.map((description, index) => manifestDocument(description, manifests[index]!)));

  const hits = { denseDescription: 0, denseManifest: 0, bm25Description: 0, bm25Manifest: 0 };
  cases.forEach((entry, caseIndex) => {
    const allowed = (entry.candidates ?? skills.map((skill) => skill.name)).map((name) => position.get(name)!).filter((index) => index !== undefined);
    const query = queryVectors[caseIndex]!;
    const descriptionScores = descriptionVectors.map((vector) => dot(query, vector));
    const manifestScores = [...descriptionScores];
    manifestVectors.forEach((vector, row) => {
      const owner = manifestOwner[row]!;
      manifestScores[owner] = Math.max(manifestScores[owner]!, dot(query, vector));
    });
    const expected = position.get(entry.expected);
    const correct = (scores: ArrayLike<number>): number => (best(allowed, scores) === expected ? 1 : 0);
    hits.denseDescription += correct(descriptionScores);
    hits.denseManifest += correct(manifestScores);
    hits.bm25Description += correct(bm25Description.scores(entry.query));
    hits.bm25Manifest += correct(bm25Manifest.scores(entry.query));
  });
  const accuracy = (count: number): number => count / cases.length;
  return {
    set: path.basename(file),
    skills: skills.length,
    cases: cases.length,
    denseDescription: accuracy(hits.denseDescription),
    denseManifest: accuracy(hits.denseManifest),
    bm25Description: accuracy(hits.bm25Description),
    bm25Manifest: accuracy(hits.bm25Manifest),
  };
}

/** What a lexical index sees of a skill with its manifest: description, keywords, phrases and queries. */
function manifestDocument(description: string, manifest: Manifest): string {
  return [description, ...manifest.keywords, ...manifest.phrases, ...manifest.queries].join("\n");
}

/** The allowed index with the highest score; the first one on a tie, so the outcome is deterministic. */
function best(allowed: number[], scores: ArrayLike<number>): number | undefined {
  let winner: number | undefined;
  for (const index of allowed) if (winner === undefined || scores[index]! > scores[winner]!) winner = index;
  return winner;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/** The "## Expansion" section: the table plus how, where and on what it was measured. */
function expansionSection(figures: ExpansionFigures[], embedderId: string, command: string): string {
  const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  const dirty = execFileSync("git", ["status", "--porcelain", "--", "src/expand", "bench/expansion.ts", "bench/plain-bm25.ts"], { encoding: "utf8" }).trim() !== "";
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  const rows = figures.map(
    (row) => `| ${row.set} | ${row.skills} | ${row.cases} | ${percent(row.denseDescription)} | ${percent(row.denseManifest)} | ${percent(row.bm25Description)} | ${percent(row.bm25Manifest)} |`,
  );
  return [
    SECTION,
    "",
    "Top-1 accuracy on in-scope cases (restricted to each case's `candidates` when given), heuristic manifests only (no LLM,",
    "no example queries). Dense: cosine to the description text, against the max over description and manifest queries.",
    "BM25: plain BM25 over the description text, against description + keywords + phrases + queries, both through the",
    "router's own analyser (stemmed, stop words out), so the singular forms the heuristic adds to keywords add nothing here.",
    "",
    "| eval set | skills | cases | dense, description | dense, + heuristic manifest | BM25, description | BM25, + heuristic manifest |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${cpu}, Node ${process.version}, embedder \`${embedderId}\`, commit \`${commit}${dirty ? " + uncommitted expander changes" : ""}\`.`,
    `Reproduce: \`${command}\``,
    "",
  ].join("\n");
}

const args = process.argv.slice(2);
const sets = args.filter((arg) => !arg.startsWith("--"));
const embedder = await createEmbedder();
const figures: ExpansionFigures[] = [];
for (const file of sets.length > 0 ? sets : DEFAULT_SETS) {
  const started = performance.now();
  figures.push(await measureExpansion(file, (texts) => embedder.embed(texts)));
  process.stderr.write(`${file}: ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
}
await embedder.close();
const section = expansionSection(figures, embedder.id, `npx tsx bench/expansion.ts${args.length > 0 ? ` ${args.join(" ")}` : ""}`);
process.stdout.write(section);
if (!args.includes("--no-write")) replaceSections(path.join("bench", "RESULTS.md"), [{ heading: SECTION, text: section }]);
