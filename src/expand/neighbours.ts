import { buildPostings } from "./postings.js";
import { analyseText } from "../text/analyse-text.js";
import { readableName } from "../text/readable-name.js";

export interface NeighbourCandidate {
  id: string;
  name: string;
  description: string;
}

export interface NeighbourFinder {
  /** The k skills most like this one (never itself), most similar first; only skills sharing a word. */
  nearest(skill: NeighbourCandidate, k: number): NeighbourCandidate[];
}

/**
 * Lexical nearest neighbours: TF-IDF cosine over the words of name and description, through an inverted
 * index, so finding neighbours among 10,000 skills costs milliseconds and needs no model. Not the router's BM25F
 * (indexer/lexical-tables.ts): that scores a query against packed routing data built after the manifests this feeds,
 * and on 2,634 corpus skills it named other neighbours for 27.5% of the top 5, which would change LLM prompts unmeasured.
 */
export function createNeighbourFinder(pool: NeighbourCandidate[]): NeighbourFinder {
  const termSets = pool.map((skill) => termCounts(skill));
  const documentFrequency = new Map<string, number>();
  for (const counts of termSets) for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const idf = (term: string): number => Math.log((1 + pool.length) / (1 + (documentFrequency.get(term) ?? 0))) + 1;
  const vectors = termSets.map((counts) => weigh(counts, idf));
  const postings = buildPostings(vectors);
  return {
    nearest(skill, k) {
      const scores = new Map<number, number>();
      for (const [term, weight] of weigh(termCounts(skill), idf)) {
        for (const posting of postings.get(term) ?? []) scores.set(posting.index, (scores.get(posting.index) ?? 0) + weight * posting.value);
      }
      return [...scores]
        .filter(([index]) => pool[index]!.id !== skill.id)
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, k)
        .map(([index]) => pool[index]!);
    },
  };
}

function termCounts(skill: NeighbourCandidate): Map<string, number> {
  const counts = new Map<string, number>();
  // The name counts twice: it is the densest statement of what a skill does.
  const name = analyseText(readableName(skill.name));
  for (const term of [...name, ...name, ...analyseText(skill.description)]) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** Log-scaled term frequency times IDF, scaled to unit length. */
function weigh(counts: Map<string, number>, idf: (term: string) => number): Map<string, number> {
  const weights = new Map([...counts].map(([term, count]) => [term, (1 + Math.log(count)) * idf(term)] as const));
  const norm = Math.sqrt([...weights.values()].reduce((sum, weight) => sum + weight * weight, 0)) || 1;
  return new Map([...weights].map(([term, weight]) => [term, weight / norm]));
}
