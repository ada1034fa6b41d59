import type { Candidate, RetrievalSources, Retriever } from "./retriever.js";
import { topByKey } from "./top-k.js";

/**
 * The skills whose manifest keywords and phrases the query holds most (a phrase counts twice): exact technical
 * words find a skill even when BM25 ranks longer texts first. Common words hit many skills, so only the top few join.
 */
export function keywordRetriever({ lexical }: RetrievalSources): Retriever {
  return {
    name: "keywords",
    retrieve(query, limit, allowed): Candidate[] {
      const { skills, counts } = lexical.keywords(query);
      return topByKey(skills, counts, limit, allowed).map((at) => ({ skill: skills[at]!, score: counts[at]! }));
    },
  };
}
