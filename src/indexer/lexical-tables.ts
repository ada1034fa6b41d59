import type { LexicalTables } from "../store/lexical-data.js";
import type { Manifest } from "../store/records.js";
import { analyseText } from "../text/analyse-text.js";
import { withoutExclusions } from "../text/excluded-uses.js";
import { readableName } from "../text/readable-name.js";

// BM25F as wink-bm25-text-search computes it (the defaults were fitted on its scores), packed into typed arrays at
// index time: loading an index version reads them instead of building a search engine on the event loop.

// Field weights: a word in the name or the keywords says more than one in a long description, or in the body.
const FIELD_WEIGHTS = { name: 3, keywords: 2, phrases: 2, queries: 1, description: 1, body: 0.5 } as const;
type Field = keyof typeof FIELD_WEIGHTS;
const K1 = 1.2;
const B = 0.75;
const IDF_K = 1;
// wink-bm25 counted empty filler documents in tiny indexes (it needs 3): kept, so scores stay what they were.
const MIN_DOCUMENTS = 3;

/** What the lexical index reads of a skill. */
export interface LexicalSource {
  name: string;
  description: string;
  /** The start of a skill's instructions (empty for tools). */
  bodyStart: string;
  manifest: Manifest | undefined;
  /** Requests confirmed from use (that agree with another): read as queries. */
  usage?: string[];
}

/** BM25F postings and the keyword/phrase index of every skill, in the order given. */
export function buildLexicalTables(skills: LexicalSource[]): LexicalTables {
  // Per skill: weighted term frequencies and weighted length, as wink adds a document.
  const frequencies: Map<string, number>[] = [];
  const lengths: number[] = [];
  for (const skill of skills) {
    const fields = searchableFields(skill);
    const frequency = new Map<string, number>();
    let length = 0;
    for (const field of Object.keys(FIELD_WEIGHTS) as Field[]) {
      const terms = analyseText(fields[field]);
      for (const term of terms) frequency.set(term, (frequency.get(term) ?? 0) + FIELD_WEIGHTS[field]);
      length += terms.length * FIELD_WEIGHTS[field];
    }
    frequencies.push(frequency);
    lengths.push(length);
  }
  const terms = [...new Set(frequencies.flatMap((frequency) => [...frequency.keys()]))].sort();
  const termId = new Map(terms.map((term, id) => [term, id]));
  const documents = Math.max(skills.length, MIN_DOCUMENTS);
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / documents;
  const documentFrequency = new Int32Array(terms.length);
  for (const frequency of frequencies) for (const term of frequency.keys()) documentFrequency[termId.get(term)!]!++;
  const idf = Array.from(documentFrequency, (count) => Math.log((documents - count + 0.5) / (count + 0.5) + IDF_K));
  const offsets = new Int32Array(terms.length + 1);
  for (let id = 0; id < terms.length; id++) offsets[id + 1] = offsets[id]! + documentFrequency[id]!;
  const postingSkills = new Int32Array(offsets[terms.length]!);
  const postingScores = new Float32Array(offsets[terms.length]!);
  const filled = offsets.slice(0, terms.length);
  frequencies.forEach((frequency, skill) => {
    const normalisation = 1 - B + (B * lengths[skill]!) / averageLength;
    for (const [term, value] of frequency) {
      const id = termId.get(term)!;
      const at = filled[id]!++;
      postingSkills[at] = skill;
      // wink rounds each term's contribution to four decimals.
      postingScores[at] = Math.sign(value) * Number(Math.abs(((value * (K1 + 1)) / (K1 * normalisation + value)) * idf[id]!).toFixed(4));
    }
  });
  return { terms: joinedTerms(terms), offsets, postingSkills, postingScores, ...keywordEntries(skills) };
}

/** Sorted terms as one UTF-8 text, a line each (an analysed term holds no whitespace): loading splits it, no JSON to parse. */
function joinedTerms(terms: string[]): Uint8Array {
  return new TextEncoder().encode(terms.join("\n"));
}

/** The fields BM25 indexes for a skill. */
function searchableFields(skill: LexicalSource): Record<Field, string> {
  return {
    name: readableName(skill.name),
    description: withoutExclusions(skill.description),
    body: withoutExclusions(skill.bodyStart),
    keywords: skill.manifest?.keywords.join(" ") ?? "",
    phrases: skill.manifest?.phrases.join(" ") ?? "",
    queries: [...(skill.manifest?.queries ?? []), ...(skill.usage ?? [])].join(" "),
  };
}

/**
 * Every manifest keyword and phrase as an entry (its skill, kind, text and number of distinct terms) and, per
 * term, the entries that hold it: a keyword hits when all its terms are in the query. A single identifier
 * (`CrashLoopBackOff`) is entered twice: split, and whole (`crashloopbackoff`). Entry texts are UTF-8 read only
 * when an entry hits.
 */
function keywordEntries(skills: LexicalSource[]): Omit<LexicalTables, "terms" | "offsets" | "postingSkills" | "postingScores"> {
  const entrySkill: number[] = [];
  const entryKind: number[] = [];
  const entryTermCount: number[] = [];
  const texts: Uint8Array[] = [];
  const byTerm = new Map<string, number[]>();
  const encoder = new TextEncoder();
  skills.forEach((skill, index) => {
    const lists = [skill.manifest?.keywords ?? [], skill.manifest?.phrases ?? []];
    lists.forEach((list, kind) => {
      for (const text of list) {
        for (const terms of termVariants(text)) {
          const id = entrySkill.push(index) - 1;
          entryKind.push(kind);
          entryTermCount.push(terms.length);
          texts.push(encoder.encode(text));
          for (const term of terms) {
            const entries = byTerm.get(term);
            if (entries) entries.push(id);
            else byTerm.set(term, [id]);
          }
        }
      }
    });
  });
  const keywordTerms = [...byTerm.keys()].sort();
  const keywordOffsets = new Int32Array(keywordTerms.length + 1);
  keywordTerms.forEach((term, index) => (keywordOffsets[index + 1] = keywordOffsets[index]! + byTerm.get(term)!.length));
  const entryTextOffsets = new Int32Array(texts.length + 1);
  texts.forEach((text, index) => (entryTextOffsets[index + 1] = entryTextOffsets[index]! + text.length));
  const entryTexts = new Uint8Array(entryTextOffsets[texts.length]!);
  texts.forEach((text, index) => entryTexts.set(text, entryTextOffsets[index]!));
  return {
    entrySkill: Int32Array.from(entrySkill),
    entryKind: Uint8Array.from(entryKind),
    entryTermCount: Uint8Array.from(entryTermCount),
    entryTextOffsets,
    entryTexts,
    keywordTerms: joinedTerms(keywordTerms),
    keywordOffsets,
    keywordEntries: Int32Array.from(keywordTerms.flatMap((term) => byTerm.get(term)!)),
  };
}

function termVariants(text: string): string[][] {
  const terms = [...new Set(analyseText(text))];
  if (terms.length === 0) return [];
  const isIdentifier = !/\s/.test(text.trim()) && terms.length > 1;
  return isIdentifier ? [terms, [terms[0]!]] : [terms];
}
