import type { Candidate, RetrievalSources, Retriever } from "./retriever.js";

/** The skills with the highest BM25F scores (over name, description, body start, keywords, phrases and queries). */
export function bm25Retriever({ lexical }: RetrievalSources): Retriever {
  return {
    name: "bm25",
    retrieve(query, limit, allowed): Candidate[] {
      const hits: Candidate[] = [];
      // The lexical index lists matches best first.
      for (const [skill, score] of lexical.bm25(query)) {
        if (hits.length >= limit) break;
        if (!allowed || allowed(skill)) hits.push({ skill, score });
      }
      return hits;
    },
  };
}
