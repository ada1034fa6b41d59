import type { Candidate, RetrievalSources, Retriever } from "./retriever.js";
import { topByKey } from "./top-k.js";

/** The skills with the highest BM25F scores (over name, description, body start, keywords, phrases and queries). */
export function bm25Retriever({ lexical }: RetrievalSources): Retriever {
  return {
    name: "bm25",
    retrieve(query, limit, allowed): Candidate[] {
      const { skills, scores } = lexical.bm25(query);
      return topByKey(skills, scores, limit, allowed).map((at) => ({ skill: skills[at]!, score: scores[at]! }));
    },
  };
}
