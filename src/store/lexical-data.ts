import { z } from "zod";
import { routingPart, type PartArrays } from "./routing-data.js";

/**
 * BM25F postings and the keyword index, as `router index` packs them (indexer/lexical-tables.ts) and the query path
 * reads them (route/lexical-index.ts). Terms are UTF-8 lines in sorted order; a term's postings, and a keyword term's
 * entries, run from its offset to the next term's.
 */
const LEXICAL_LAYOUT = {
  terms: "u8",
  offsets: "i32",
  postingSkills: "i32",
  postingScores: "f32",
  // One entry per manifest keyword or phrase (an identifier twice: split and whole).
  entrySkill: "i32",
  entryKind: "u8",
  entryTermCount: "u8",
  entryTextOffsets: "i32",
  entryTexts: "u8",
  keywordTerms: "u8",
  keywordOffsets: "i32",
  keywordEntries: "i32",
} as const;

export type LexicalTables = PartArrays<typeof LEXICAL_LAYOUT>;

// Format 3: the first written with a declared layout (format 2 indexes held the same arrays, unchecked).
export const lexicalData = routingPart("lexical", 3, LEXICAL_LAYOUT, z.object({}));

/** The tables of an index without skills: every offsets array holds its one leading 0. */
export function emptyLexicalTables(): LexicalTables {
  const none = { i32: () => new Int32Array(0), u8: () => new Uint8Array(0) };
  return {
    terms: none.u8(),
    offsets: new Int32Array(1),
    postingSkills: none.i32(),
    postingScores: new Float32Array(0),
    entrySkill: none.i32(),
    entryKind: none.u8(),
    entryTermCount: none.u8(),
    entryTextOffsets: new Int32Array(1),
    entryTexts: none.u8(),
    keywordTerms: none.u8(),
    keywordOffsets: new Int32Array(1),
    keywordEntries: none.i32(),
  };
}
