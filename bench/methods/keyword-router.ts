import { openIndexForRead } from "../../src/store/database.js";
import { readManifests } from "../../src/store/manifest-rows.js";
import { listSkills } from "../../src/store/skill-rows.js";
import { positionsOf, rankByScore } from "./rank-by-score.js";
import type { MethodAnswer, RoutingMethod } from "./routing-method.js";

export interface KeywordSkill {
  name: string;
  keywords: string[];
  phrases: string[];
}

/** The install-time keywords and phrases the router itself holds in an index: what the keyword baseline matches. */
export function manifestKeywords(db: string): KeywordSkill[] {
  const index = openIndexForRead(db);
  try {
    const manifests = readManifests(index);
    return listSkills(index).map((skill) => ({ name: skill.name, keywords: manifests.get(skill.id)?.manifest.keywords ?? [], phrases: manifests.get(skill.id)?.manifest.phrases ?? [] }));
  } finally {
    index.close();
  }
}

const KEYWORD_POINTS = 1;
const PHRASE_POINTS = 2;
const LOAD_AT = 3;

/**
 * (a) The keyword router of the nb design: install-time keywords and phrases, case-insensitive "contains",
 * a keyword hit scores 1 and a phrase hit 2, and the best skill is loaded when it scores at least 3.
 */
export function keywordRouter(skills: KeywordSkill[]): RoutingMethod {
  const names = skills.map((skill) => skill.name);
  const byName = new Map(names.map((name, index) => [name, index]));
  const lowered = skills.map((skill) => ({ keywords: skill.keywords.map(lower), phrases: skill.phrases.map(lower) }));
  return {
    calibrated: false,
    async route(query: string, candidates?: string[]): Promise<MethodAnswer> {
      const text = lower(query);
      const scores = lowered.map((skill) => KEYWORD_POINTS * count(skill.keywords, text) + PHRASE_POINTS * count(skill.phrases, text));
      const { ranked, best } = rankByScore(names, scores, positionsOf(byName, candidates));
      const inject = best >= LOAD_AT;
      return { ranked, confidence: 0, decision: inject ? "inject" : "none", selected: inject ? [ranked[0]!] : [], embedMs: 0 };
    },
    close: async () => {},
  };
}

function lower(text: string): string {
  return text.toLowerCase();
}

function count(needles: string[], text: string): number {
  return needles.filter((needle) => needle !== "" && text.includes(needle)).length;
}
