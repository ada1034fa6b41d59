import type { RoutingData } from "../store/routing-data.js";
import type { KeywordMatch } from "./keyword-match.js";
import type { RouteQuery } from "./query.js";

/** The lexical evidence of one index version: BM25F over each skill's fields and exact keyword and phrase hits. */
export interface LexicalIndex {
  /** Raw BM25F score of every skill sharing a term with the query, in no order (computed once per query, however often asked). */
  bm25(query: RouteQuery): Map<number, number>;
  /** Skill -> the manifest keywords and phrases the query holds (once per query). */
  keywords(query: RouteQuery): Map<number, KeywordMatch>;
}

/** The lexical index over the tables `router index` wrote (route/lexical-tables.ts). */
export function lexicalIndex(data: RoutingData, skillCount: number): LexicalIndex {
  const ints = (name: string) => (data.arrays[name] as Int32Array | undefined) ?? new Int32Array(1);
  const bytes = (name: string) => (data.arrays[name] as Uint8Array | undefined) ?? new Uint8Array(0);
  const [offsets, postingSkills, entrySkill, entryTextOffsets, keywordOffsets, keywordEntries] = ["offsets", "postingSkills", "entrySkill", "entryTextOffsets", "keywordOffsets", "keywordEntries"].map(
    ints,
  ) as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
  const postingScores = (data.arrays.postingScores as Float32Array | undefined) ?? new Float32Array(0);
  const [entryKind, entryTermCount, entryTexts] = [bytes("entryKind"), bytes("entryTermCount"), bytes("entryTexts")];
  const indexTerms = sortedTerms(bytes("terms"));
  const keywordTerms = sortedTerms(bytes("keywordTerms"));
  const decoder = new TextDecoder();
  const entryText = (entry: number) => decoder.decode(entryTexts.subarray(entryTextOffsets[entry]!, entryTextOffsets[entry + 1]!));
  const scores = new Float64Array(skillCount);
  const seen = new Uint8Array(skillCount);
  const search = (terms: string[]): Map<number, number> => {
    const touched: number[] = [];
    // Every occurrence counts, as wink-bm25 sums a repeated query term again.
    for (const term of terms) {
      const id = find(indexTerms, term);
      if (id < 0) continue;
      for (let at = offsets[id]!; at < offsets[id + 1]!; at++) {
        const skill = postingSkills[at]!;
        if (seen[skill] === 0) {
          seen[skill] = 1;
          touched.push(skill);
        }
        scores[skill]! += postingScores[at]!;
      }
    }
    // Unsorted: a common word touches thousands of skills, and the retriever wants only the best few.
    const found = new Map<number, number>();
    for (const skill of touched) {
      found.set(skill, scores[skill]!);
      scores[skill] = 0;
      seen[skill] = 0;
    }
    return found;
  };
  // The retriever and the evidence both read a query's scores: one search serves both.
  const bm25Memo = new WeakMap<RouteQuery, Map<number, number>>();
  const keywordMemo = new WeakMap<RouteQuery, Map<number, KeywordMatch>>();
  return {
    bm25(query) {
      let found = bm25Memo.get(query);
      // A Chinese query is searched in its own words and their English gloss together.
      if (!found) bm25Memo.set(query, (found = search(query.glossTerms ? [...query.terms, ...query.glossTerms] : query.terms)));
      return found;
    },
    keywords(query) {
      let matches = keywordMemo.get(query);
      if (matches) return matches;
      const hits = new Map<number, number>();
      for (const term of new Set(query.terms)) {
        const id = find(keywordTerms, term);
        if (id < 0) continue;
        for (let at = keywordOffsets[id]!; at < keywordOffsets[id + 1]!; at++) hits.set(keywordEntries[at]!, (hits.get(keywordEntries[at]!) ?? 0) + 1);
      }
      matches = new Map();
      for (const [entry, count] of hits) {
        if (count < entryTermCount[entry]!) continue;
        const skill = entrySkill[entry]!;
        let match = matches.get(skill);
        if (!match) matches.set(skill, (match = { keywords: [], phrases: [] }));
        const list = entryKind[entry] === 0 ? match.keywords : match.phrases;
        const text = entryText(entry);
        if (!list.includes(text)) list.push(text);
      }
      keywordMemo.set(query, matches);
      return matches;
    },
  };
}

function sortedTerms(joined: Uint8Array): string[] {
  return joined.length === 0 ? [] : new TextDecoder().decode(joined).split("\n");
}

/** The position of `term` in sorted `terms`, or -1 (binary search: no map to build when an index version loads). */
function find(terms: string[], term: string): number {
  let low = 0;
  let high = terms.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = terms[middle]!;
    if (found === term) return middle;
    if (found < term) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
