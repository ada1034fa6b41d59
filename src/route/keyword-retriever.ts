import type { KeywordMatch } from "./keyword-match.js";
import type { Candidate, RetrievalSources, Retriever } from "./retriever.js";

/**
 * The skills whose manifest keywords and phrases the query holds most (a phrase counts twice): exact technical
 * words find a skill even when BM25 ranks longer texts first. Common words hit many skills, so only the top few join.
 */
export function keywordRetriever({ lexical }: RetrievalSources): Retriever {
  return {
    name: "keywords",
    retrieve(query, limit, allowed): Candidate[] {
      return [...lexical.keywords(query)]
        .filter(([skill]) => !allowed || allowed(skill))
        .map(([skill, match]) => ({ skill, score: hitCount(match) }))
        .sort((a, b) => b.score - a.score || a.skill - b.skill)
        .slice(0, limit);
    },
  };
}

export function hitCount(match: KeywordMatch): number {
  return match.keywords.length + 2 * match.phrases.length;
}
