import bm25 from "wink-bm25-text-search";
import { analyseText } from "../text/analyse-text.js";
import { keywordMatcher, type KeywordMatch } from "./keyword-matcher.js";
import type { RouteQuery } from "./query.js";
import { searchableFields, type RouteModel } from "./route-model.js";

// Field weights: a word in the name or the keywords says more than one in a long description, or in the body.
const FIELD_WEIGHTS = { name: 3, keywords: 2, phrases: 2, queries: 1, description: 1, body: 0.5 };
// wink-bm25 refuses to consolidate fewer than 3 documents; tiny indexes get empty filler documents.
const MIN_DOCUMENTS = 3;

/** The lexical evidence of one index version: BM25F over each skill's fields and exact keyword and phrase hits. */
export interface LexicalIndex {
  /** Raw BM25F score of every skill sharing a term with the query (computed once per query, however often asked). */
  bm25(query: RouteQuery): Map<number, number>;
  /** Skill -> the manifest keywords and phrases the query holds (once per query). */
  keywords(query: RouteQuery): Map<number, KeywordMatch>;
}

export function lexicalIndex(model: Pick<RouteModel, "skills">): LexicalIndex {
  const engine = bm25();
  engine.defineConfig({ fldWeights: FIELD_WEIGHTS, bm25Params: { k1: 1.2, b: 0.75, k: 1 }, ovFldNames: ["skill"] });
  // Fields are analysed on the way in; a search receives terms already analysed, so it only splits them.
  for (const field of Object.keys(FIELD_WEIGHTS)) engine.definePrepTasks([analyseText as (input: never) => unknown], field);
  engine.definePrepTasks([splitTerms as (input: never) => unknown]);
  model.skills.forEach((skill, index) => engine.addDoc({ ...searchableFields(skill), skill: index }, index));
  for (let filler = model.skills.length; filler < MIN_DOCUMENTS; filler++) {
    engine.addDoc({ name: "", description: "", body: "", keywords: "", phrases: "", queries: "", skill: -1 }, filler);
  }
  engine.consolidate();
  const matcher = keywordMatcher(model);
  const isSkill = (values: Record<string, unknown>) => (values["skill"] as number) >= 0;
  const search = (terms: string[]) => new Map(engine.search(terms.join(" "), model.skills.length, isSkill).map(([id, score]) => [Number(id), score] as [number, number]));
  // The retriever and the evidence both read a query's scores: one search serves both.
  const bm25Memo = new WeakMap<RouteQuery, Map<number, number>>();
  const keywordMemo = new WeakMap<RouteQuery, Map<number, KeywordMatch>>();
  return {
    bm25(query) {
      let scores = bm25Memo.get(query);
      if (!scores) {
        // A Chinese query is searched in its own words and their English gloss together.
        scores = search(query.glossTerms ? [...query.terms, ...query.glossTerms] : query.terms);
        bm25Memo.set(query, scores);
      }
      return scores;
    },
    keywords(query) {
      let matches = keywordMemo.get(query);
      if (!matches) keywordMemo.set(query, (matches = matcher.match(query.terms)));
      return matches;
    },
  };
}

function splitTerms(terms: string): string[] {
  return terms.split(" ").filter(Boolean);
}
