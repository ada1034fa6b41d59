import type { LexicalTables } from "../store/lexical-data.js";
import type { KeywordMatch } from "./keyword-match.js";
import type { RouteQuery } from "./query.js";

/** The lexical evidence of one index version: BM25F over each skill's fields and exact keyword and phrase hits. */
export interface LexicalIndex {
  /** Raw BM25F scores of the skills sharing a term with the query (computed once per query, however often asked). */
  bm25(query: RouteQuery): Bm25Scores;
  /** The manifest keywords and phrases the query holds, over every skill (computed once per query). */
  keywords(query: RouteQuery): KeywordHits;
}

/** A query's BM25F scores: the best skills for retrieval, any one skill's for its evidence. */
export interface Bm25Scores {
  /** The skills sharing a term with the query, each once, in no order, and their scores. */
  skills: Int32Array;
  scores: Float64Array;
  /** The scores of these distinct skills, in their order (0 for one that shares no term with the query). */
  scoresOf(skills: number[]): Float64Array;
}

/** A query's keyword and phrase hits: counts for every skill hit (retrieval), the words themselves for the candidates measured. */
export interface KeywordHits {
  /** Every skill with a hit, once, in skill order, and its keywords plus twice its phrases the query holds. */
  skills: Int32Array;
  counts: Float64Array;
  /** The keywords and phrases the query holds of each of these distinct skills, in their order. */
  matchesOf(skills: number[]): KeywordMatch[];
}

/** The lexical index over the tables `router index` wrote (indexer/lexical-tables.ts). */
export function lexicalIndex(tables: LexicalTables, skillCount: number): LexicalIndex {
  const { offsets, postingSkills, postingScores, entrySkill, entryKind, entryTermCount, entryTexts, entryTextOffsets, keywordOffsets, keywordEntries } = tables;
  const indexTerms = sortedTerms(tables.terms);
  const keywordTerms = sortedTerms(tables.keywordTerms);
  const decoder = new TextDecoder();
  const entryText = (entry: number) => decoder.decode(entryTexts.subarray(entryTextOffsets[entry]!, entryTextOffsets[entry + 1]!));
  const scores = new Float64Array(skillCount);
  // Query terms each entry holds, zeroed again after every query (an entry has at most 255 terms).
  const entryHits = new Uint8Array(entryKind.length);
  const seen = new Uint8Array(skillCount);
  // The skills a search touches and the entries a keyword search touches, listed in place: no array grows per query.
  const touchedSkills = new Int32Array(skillCount);
  const touchedEntries = new Int32Array(entryKind.length);
  // Position + 1 of each skill a scoresOf or matchesOf call asks about, zeroed again before the call returns.
  const askedAt = new Int32Array(skillCount);
  /** Calls `found` with each position in `keys` whose skill is one of `skills` (distinct), and that skill's position in `skills`. */
  const findAsked = (skills: number[], keys: Int32Array, found: (at: number, position: number) => void): void => {
    skills.forEach((skill, position) => (askedAt[skill] = position + 1));
    for (let at = 0; at < keys.length; at++) {
      const asked = askedAt[keys[at]!]!;
      if (asked > 0) found(at, asked - 1);
    }
    for (const skill of skills) askedAt[skill] = 0;
  };
  const search = (terms: string[]): Bm25Scores => {
    // Every occurrence counts, as wink-bm25 sums a repeated query term again.
    const termIds = terms.map((term) => find(indexTerms, term)).filter((id) => id >= 0);
    let touched = 0;
    for (const id of termIds) {
      for (let at = offsets[id]!; at < offsets[id + 1]!; at++) {
        const skill = postingSkills[at]!;
        if (seen[skill] === 0) {
          seen[skill] = 1;
          touchedSkills[touched++] = skill;
        }
        scores[skill]! += postingScores[at]!;
      }
    }
    // Copied out in no order: a common word touches thousands of skills, and retrieval wants only the best few.
    const found = { skills: touchedSkills.slice(0, touched), scores: new Float64Array(touched) };
    for (let at = 0; at < touched; at++) {
      const skill = found.skills[at]!;
      found.scores[at] = scores[skill]!;
      scores[skill] = 0;
      seen[skill] = 0;
    }
    return {
      ...found,
      // Picked out of the search's own sums (one pass over the skills it touched, not a search per term and skill).
      scoresOf(skills) {
        const chosen = new Float64Array(skills.length);
        findAsked(skills, found.skills, (at, position) => (chosen[position] = found.scores[at]!));
        return chosen;
      },
    };
  };
  const sameText = (a: number, b: number) => {
    const length = entryTextOffsets[a + 1]! - entryTextOffsets[a]!;
    if (length !== entryTextOffsets[b + 1]! - entryTextOffsets[b]!) return false;
    for (let at = 0; at < length; at++) if (entryTexts[entryTextOffsets[a]! + at] !== entryTexts[entryTextOffsets[b]! + at]) return false;
    return true;
  };
  // Entries are numbered skill by skill, a text's spelling variants one after another: in a sorted run of a skill's
  // complete entries, each text counts once if every entry is checked against the last one kept of its kind.
  const distinctEntries = (entries: Int32Array, from: number, to: number, keep: (entry: number) => void): void => {
    let lastKeyword = -1;
    let lastPhrase = -1;
    for (let at = from; at < to; at++) {
      const entry = entries[at]!;
      const last = entryKind[entry] === 0 ? lastKeyword : lastPhrase;
      if (last >= 0 && sameText(last, entry)) continue;
      if (entryKind[entry] === 0) lastKeyword = entry;
      else lastPhrase = entry;
      keep(entry);
    }
  };
  const keywordHits = (terms: string[]): KeywordHits => {
    let touched = 0;
    const termIds = [...new Set(terms)].map((term) => find(keywordTerms, term)).filter((id) => id >= 0);
    for (const id of termIds) {
      for (let at = keywordOffsets[id]!; at < keywordOffsets[id + 1]!; at++) {
        const entry = keywordEntries[at]!;
        if (entryHits[entry] === 0) touchedEntries[touched++] = entry;
        entryHits[entry]!++;
      }
    }
    // An entry hits when the query holds all of its terms: the hits are moved to the front of the list.
    let hits = 0;
    for (let at = 0; at < touched; at++) {
      const entry = touchedEntries[at]!;
      if (entryHits[entry]! >= entryTermCount[entry]!) touchedEntries[hits++] = entry;
      entryHits[entry] = 0;
    }
    // A typed array sorts numerically, and fast; sorted entries are grouped by skill.
    const complete = touchedEntries.slice(0, hits).sort();
    const skills: number[] = [];
    const counts: number[] = [];
    // Where each hit skill's entries start in `complete` (and, last, its end).
    const starts: number[] = [];
    for (let from = 0; from < complete.length; ) {
      const skill = entrySkill[complete[from]!]!;
      let to = from + 1;
      while (to < complete.length && entrySkill[complete[to]!] === skill) to++;
      let count = 0;
      distinctEntries(complete, from, to, (entry) => (count += entryKind[entry] === 0 ? 1 : 2));
      skills.push(skill);
      counts.push(count);
      starts.push(from);
      from = to;
    }
    starts.push(complete.length);
    const hitSkills = Int32Array.from(skills);
    /** The words of the complete entries from `from` to `to` (one skill's). */
    const matchOf = (from: number, to: number): KeywordMatch => {
      const kept: number[] = [];
      distinctEntries(complete, from, to, (entry) => kept.push(entry));
      // In the order the message uses the words: by the first of its terms that the entry holds (found once per entry).
      const firstTerm = new Map(kept.map((entry) => [entry, termIds.findIndex((id) => holds(id, entry))]));
      const match: KeywordMatch = { keywords: [], phrases: [] };
      for (const entry of kept.sort((a, b) => firstTerm.get(a)! - firstTerm.get(b)! || a - b)) (entryKind[entry] === 0 ? match.keywords : match.phrases).push(entryText(entry));
      return match;
    };
    return {
      skills: hitSkills,
      counts: Float64Array.from(counts),
      matchesOf(asked) {
        const matches = asked.map((): KeywordMatch => ({ keywords: [], phrases: [] }));
        findAsked(asked, hitSkills, (at, position) => (matches[position] = matchOf(starts[at]!, starts[at + 1]!)));
        return matches;
      },
    };
  };
  /** Whether keyword term `id` is one of `entry`'s terms (its list of entries is in ascending order). */
  const holds = (id: number, entry: number): boolean => {
    const at = firstNotBelow(keywordOffsets[id]!, keywordOffsets[id + 1]!, (position) => keywordEntries[position]! < entry);
    return at < keywordOffsets[id + 1]! && keywordEntries[at] === entry;
  };
  // The retriever and the evidence both read a query's scores: one search serves both.
  const bm25Memo = new WeakMap<RouteQuery, Bm25Scores>();
  const keywordMemo = new WeakMap<RouteQuery, KeywordHits>();
  return {
    bm25(query) {
      let found = bm25Memo.get(query);
      // A Chinese query is searched in its own words and their English gloss together.
      if (!found) bm25Memo.set(query, (found = search(query.glossTerms ? [...query.terms, ...query.glossTerms] : query.terms)));
      return found;
    },
    keywords(query) {
      let hits = keywordMemo.get(query);
      if (!hits) keywordMemo.set(query, (hits = keywordHits(query.terms)));
      return hits;
    },
  };
}

/** The first position in [from, to) where `below` turns false (binary search: it is true up to some position, then false). */
function firstNotBelow(from: number, to: number, below: (position: number) => boolean): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (below(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}

function sortedTerms(joined: Uint8Array): string[] {
  return joined.length === 0 ? [] : new TextDecoder().decode(joined).split("\n");
}

/** The position of `term` in sorted `terms`, or -1 (binary search: no map to build when an index version loads). */
function find(terms: string[], term: string): number {
  const at = firstNotBelow(0, terms.length, (position) => terms[position]! < term);
  return at < terms.length && terms[at] === term ? at : -1;
}
