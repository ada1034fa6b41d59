import type { Candidate, RetrievalSources, Retriever } from "./retriever.js";
import { topEntries } from "./top-k.js";

/** The skills with the highest BM25F scores (over name, description, body start, keywords, phrases and queries). */
export function bm25Retriever({ lexical }: RetrievalSources): Retriever {
  return {
    name: "bm25",
    retrieve(query, limit, allowed): Candidate[] {
      return topEntries(lexical.bm25(query), limit, allowed).map(([skill, score]) => ({ skill, score }));
    },
  };
}
