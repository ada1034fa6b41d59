// A textbook BM25 (Robertson/Sparck Jones IDF, k1 = 1.2, b = 0.75) over the router's own analyser (src/text): the plain lexical baseline.
import { buildPostings } from "../src/expand/postings.js";
import { analyseText } from "../src/text/analyse-text.js";

const K1 = 1.2;
const B = 0.75;

export interface PlainBm25 {
  /** BM25 score of the query against each document, in document order. */
  scores(query: string): Float64Array;
}

export function plainBm25(documents: string[]): PlainBm25 {
  const termCounts = documents.map((document) => countTerms(analyseText(document)));
  const lengths = termCounts.map((counts) => [...counts.values()].reduce((sum, count) => sum + count, 0));
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, documents.length);
  const postings = buildPostings(termCounts);
  return {
    scores(query) {
      const scores = new Float64Array(documents.length);
      for (const term of new Set(analyseText(query))) {
        const list = postings.get(term);
        if (!list) continue;
        const idf = Math.log(1 + (documents.length - list.length + 0.5) / (list.length + 0.5));
        for (const { index, value: count } of list) {
          scores[index]! += (idf * count * (K1 + 1)) / (count + K1 * (1 - B + (B * lengths[index]!) / averageLength));
        }
      }
      return scores;
    },
  };
}

function countTerms(terms: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
