// Both shipped embedders (USE-lite and MiniLM) were trained on English: text in other scripts maps to unknown
// pieces, and every such text lands near every other. Dense similarity then says nothing about meaning.
const LETTER = /\p{L}/gu;
const LATIN_LETTER = /\p{Script=Latin}/gu;
// Below this share of Latin letters a query's vector is mostly unknown pieces.
const MIN_LATIN_SHARE = 0.5;

/** Whether the embedder can read the query: most of its letters are in the Latin script (or it has none). */
export function embedderReads(text: string): boolean {
  const letters = text.match(LETTER)?.length ?? 0;
  if (letters === 0) return true;
  return (text.match(LATIN_LETTER)?.length ?? 0) / letters >= MIN_LATIN_SHARE;
}
