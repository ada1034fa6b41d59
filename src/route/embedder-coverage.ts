import { MODEL_CATALOGUE } from "../models/model-catalogue.js";

// USE-lite and MiniLM were trained on English: text in other scripts maps to unknown pieces, and every such text
// lands near every other. Dense similarity then says nothing about meaning.
const LETTER = /\p{L}/gu;
const LATIN_LETTER = /\p{Script=Latin}/gu;
// Below this share of Latin letters a query's vector is mostly unknown pieces.
const MIN_LATIN_SHARE = 0.5;
// The multilingual MiniLM was trained on 50+ languages, Chinese, Japanese and Korean among them.
const READS_EVERY_SCRIPT = MODEL_CATALOGUE.multilingual.idPrefix;

/** Most of the text's letters are in the Latin script (or it has none). */
export function mostlyLatin(text: string): boolean {
  const letters = text.match(LETTER)?.length ?? 0;
  if (letters === 0) return true;
  return (text.match(LATIN_LETTER)?.length ?? 0) / letters >= MIN_LATIN_SHARE;
}

/** Whether the embedder (an index's or encoder's embedder id) reads text in any script, not only Latin. */
export function readsEveryScript(embedder: string | undefined): boolean {
  return embedder?.startsWith(READS_EVERY_SCRIPT) === true;
}

/** Whether the embedder reads the text: a multilingual one reads every script. */
export function embedderReads(text: string, embedder: string | undefined): boolean {
  return readsEveryScript(embedder) || mostlyLatin(text);
}
