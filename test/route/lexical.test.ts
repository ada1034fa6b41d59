import { describe, expect, it } from "vitest";
import bm25 from "wink-bm25-text-search";
import { buildLexicalTables, type LexicalSource } from "../../src/indexer/lexical-tables.js";
import { lexicalIndex } from "../../src/route/lexical-index.js";
import type { RouteQuery } from "../../src/route/query.js";
import { analyseText } from "../../src/text/analyse-text.js";
import { readableName } from "../../src/text/readable-name.js";

describe("analyseText", () => {
  it("stems, drops stop words, and keeps identifiers whole and split", () => {
    expect(analyseText("Why does my pod keep restarting?")).toEqual(["pod", "keep", "restart"]);
    expect(analyseText("get_current_weather")).toEqual(["getcurrentweath", "get", "current", "weather"]);
    expect(analyseText("CrashLoopBackOff")).toEqual(expect.arrayContaining(["crashloopbackoff", "crash", "loop"]));
    expect(analyseText("crashloopbackoff")).toContain("crashloopbackoff");
    expect(analyseText("")).toEqual([]);
  });
});

const skill = (name: string, keywords: string[], phrases: string[], description = ""): LexicalSource => ({
  name,
  description,
  bodyStart: "",
  manifest: { queries: ["x"], keywords, phrases, negatives: [], negative_constraint: "", category: "" },
});
const query = (text: string): RouteQuery => ({ text, terms: analyseText(text), readable: true }) as RouteQuery;

describe("keyword index", () => {
  const skills = [skill("k8s", ["kubectl", "CrashLoopBackOff", "pod eviction"], ["pod keeps restarting"]), skill("git", ["commit"], ["write a commit message"])];
  const lexical = lexicalIndex(buildLexicalTables(skills), skills.length);

  it("hits a keyword when all its terms are in the query, whatever the form", () => {
    const found = lexical.keywords(query("kubectl says crashloopbackoff"));
    expect(found.matchesOf([1, 0])).toEqual([
      { keywords: [], phrases: [] },
      { keywords: ["kubectl", "CrashLoopBackOff"], phrases: [] },
    ]);
    expect([...found.skills]).toEqual([0]);
    expect([...found.counts]).toEqual([2]);
  });

  it("needs every content word of a phrase, in any order and inflection", () => {
    expect(lexical.keywords(query("my pod restarts and keeps going")).matchesOf([0])[0]!.phrases).toEqual(["pod keeps restarting"]);
    expect(lexical.keywords(query("my pod is fine")).matchesOf([0])).toEqual([{ keywords: [], phrases: [] }]);
    const commit = lexical.keywords(query("please write the message for this commit"));
    expect(commit.matchesOf([1])).toEqual([{ keywords: ["commit"], phrases: ["write a commit message"] }]);
    // A phrase counts twice.
    expect([...commit.counts]).toEqual([3]);
  });
});

describe("BM25F over a skill's description", () => {
  it("finds no evidence for a skill in what its description says it is not for", () => {
    const skills = [
      skill("coolify-deploy", [], [], "Deploy a repository to a Coolify VPS. Do not use for Vercel or Cloudflare Pages delivery."),
      skill("vercel-deploy", [], [], "Deploy a front end to Vercel."),
    ];
    const scores = lexicalIndex(buildLexicalTables(skills), skills.length).bm25(query("publish my site on Vercel"));
    expect(scores.scoresOf([0, 1])[0]).toBe(0);
    expect(scores.scoresOf([0, 1])[1]).toBeGreaterThan(0);
  });
});

describe("BM25F tables", () => {
  // Skills of random words from a small vocabulary: shared terms, repeats and fields of every length.
  const vocabulary = "pod restart deploy commit branch merge invoice refund weather forecast email draft calendar meeting slide chart query table index cache".split(" ");
  let state = 7;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const words = (count: number) => Array.from({ length: count }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(" ");
  const skills: LexicalSource[] = Array.from({ length: 40 }, (_, index) => ({
    name: `skill-${words(2).replace(" ", "-")}-${index}`,
    description: words(3 + Math.floor(random() * 30)),
    bodyStart: index % 3 === 0 ? "" : words(Math.floor(random() * 200)),
    manifest: index % 5 === 0 ? undefined : { queries: [words(6), words(8)], keywords: [words(1), words(2)], phrases: [words(3)], negatives: [], negative_constraint: "", category: "" },
  }));

  /** wink-bm25-text-search configured as the router's defaults were fitted on. */
  function winkScores(sources: LexicalSource[], text: string): Map<number, number> {
    const engine = bm25();
    const weights = { name: 3, keywords: 2, phrases: 2, queries: 1, description: 1, body: 0.5 };
    engine.defineConfig({ fldWeights: weights, bm25Params: { k1: 1.2, b: 0.75, k: 1 }, ovFldNames: ["skill"] });
    for (const field of Object.keys(weights)) engine.definePrepTasks([analyseText as (input: never) => unknown], field);
    engine.definePrepTasks([((terms: string) => terms.split(" ").filter(Boolean)) as (input: never) => unknown]);
    sources.forEach((source, index) => {
      const manifest = source.manifest;
      const fields = {
        name: readableName(source.name),
        description: source.description,
        body: source.bodyStart,
        keywords: manifest?.keywords.join(" ") ?? "",
        phrases: manifest?.phrases.join(" ") ?? "",
        queries: manifest?.queries.join(" ") ?? "",
      };
      engine.addDoc({ ...fields, skill: index }, index);
    });
    for (let filler = sources.length; filler < 3; filler++) engine.addDoc({ name: "", description: "", body: "", keywords: "", phrases: "", queries: "", skill: -1 }, filler);
    engine.consolidate();
    const found = engine.search(analyseText(text).join(" "), sources.length, (values) => (values["skill"] as number) >= 0);
    return new Map(found.map(([id, score]) => [Number(id), score]));
  }

  it.each([
    ["a large index", 40],
    ["an index below wink's three documents", 2],
  ])("scores every skill as wink-bm25 does, in %s", (_, count) => {
    const sources = skills.slice(0, count);
    const lexical = lexicalIndex(buildLexicalTables(sources), sources.length);
    for (const text of ["pod restart", "refund the invoice invoice", "weather forecast for the meeting", "branch merge commit deploy cache", "nothing matches zebra"]) {
      const ours = lexical.bm25(query(text));
      const theirs = winkScores(sources, text);
      expect([...ours.skills].sort((a, b) => a - b)).toEqual([...theirs.keys()].sort((a, b) => a - b));
      for (const [index, score] of theirs) expect(ours.scores[ours.skills.indexOf(index)]).toBeCloseTo(score, 4);
      // The scores of skills asked for, in the order asked: the very numbers found, and 0 for a skill sharing no term.
      const asked = [...sources.keys()].reverse();
      expect([...ours.scoresOf(asked)]).toEqual(asked.map((skill) => (ours.skills.includes(skill) ? ours.scores[ours.skills.indexOf(skill)] : 0)));
    }
  });
});
