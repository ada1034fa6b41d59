import { analyseText } from "../text/analyse-text.js";
import type { RouteModel } from "./route-model.js";

/** The manifest keywords and phrases of one skill found in a query. */
export interface KeywordMatch {
  keywords: string[];
  phrases: string[];
}

interface Entry {
  skill: number;
  text: string;
  kind: "keyword" | "phrase";
  termCount: number;
}

export interface KeywordMatcher {
  /** Skill index -> what matched, for every skill with at least one hit. */
  match(terms: string[]): Map<number, KeywordMatch>;
}

/**
 * Exact lexical evidence: a keyword or phrase hits when every one of its content terms is in the query.
 * An inverted index from term to entries keeps this proportional to the query, not to the index.
 */
export function keywordMatcher(model: Pick<RouteModel, "skills">): KeywordMatcher {
  const entries: Entry[] = [];
  const byTerm = new Map<string, number[]>();
  model.skills.forEach((skill, index) => {
    const lists = [
      ["keyword", skill.manifest?.keywords ?? []],
      ["phrase", skill.manifest?.phrases ?? []],
    ] as const;
    for (const [kind, texts] of lists) {
      for (const text of texts) {
        for (const terms of termVariants(text)) {
          const id = entries.push({ skill: index, text, kind, termCount: terms.length }) - 1;
          for (const term of terms) {
            const list = byTerm.get(term);
            if (list) list.push(id);
            else byTerm.set(term, [id]);
          }
        }
      }
    }
  });
  return {
    match(terms: string[]): Map<number, KeywordMatch> {
      const found = new Map<number, number>();
      for (const term of new Set(terms)) {
        for (const id of byTerm.get(term) ?? []) found.set(id, (found.get(id) ?? 0) + 1);
      }
      const matches = new Map<number, KeywordMatch>();
      for (const [id, count] of found) {
        const entry = entries[id]!;
        if (count < entry.termCount) continue;
        let match = matches.get(entry.skill);
        if (!match) matches.set(entry.skill, (match = { keywords: [], phrases: [] }));
        const list = entry.kind === "keyword" ? match.keywords : match.phrases;
        if (!list.includes(entry.text)) list.push(entry.text);
      }
      return matches;
    },
  };
}

/** A keyword's terms; a single identifier (`CrashLoopBackOff`) also matches written whole (`crashloopbackoff`). */
function termVariants(text: string): string[][] {
  const terms = [...new Set(analyseText(text))];
  if (terms.length === 0) return [];
  const isIdentifier = !/\s/.test(text.trim()) && terms.length > 1;
  return isIdentifier ? [terms, [terms[0]!]] : [terms];
}
