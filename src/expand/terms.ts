import { readableName } from "../text/readable-name.js";

// Function words and words every skill uses: they say nothing about which skill a request is for.
const STOPWORDS = new Set(
  (
    "a about above after again all also am an and any are as at be because been before being below between both but by can could did do does doing " +
    "down during each either etc few for from further had has have having he her here hers him his how i if in into is it its itself just " +
    "me more most my no nor not now of off on once only or other our ours out over own same she should so some such than that the their them " +
    "then there these they this those through to too under until up upon us very via was we were what when where which while who whom why " +
    "will with within without would you your yours " +
    "e g eg ie etc use used uses using user users skill skills tool tools help helps helping allows allow provide provides providing " +
    "based given specific specified various way ways like may must need needs want wants make makes able ask asks asked request requests " +
    "task tasks based one two new get gets getting mention mentions say says see"
  ).split(/\s+/),
);

// Names and words that end like plurals but are not: their "singular" would be a wrong keyword.
const NOT_PLURAL = new Set("kubernetes postgres express jenkins redis series species news canvas atlas chaos lens bias alias".split(" "));

/** Words of a text: identifiers split (`getWeather`, `k8s_debug`), lower-cased, numbers kept when they carry letters. */
export function words(text: string): string[] {
  return (
    readableName(text)
      .toLowerCase()
      .match(/[a-z0-9][a-z0-9+#]*/g) ?? []
  );
}

/** Words that carry meaning: no stopwords, no bare numbers, at least two characters. */
export function contentWords(text: string): string[] {
  return words(text).filter(isContentWord);
}

export function isContentWord(word: string): boolean {
  return word.length >= 2 && !STOPWORDS.has(word) && !/^\d+$/.test(word);
}

/**
 * The singular of an English plural ("queries" -> "query", "indexes" -> "index"), also the base form of a
 * third-person verb ("calculates" -> "calculate"), or undefined. Conservative: a wrong form is a wrong keyword.
 */
export function baseForm(word: string): string | undefined {
  if (word.length < 5 || /\d/.test(word) || NOT_PLURAL.has(word)) return undefined;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  // "buzzes" -> "buzz", but "specializes" -> "specialize".
  if (/(?:ch|sh|ss|x|zz)es$/.test(word)) return word.slice(0, -2);
  if (/[^su]s$/.test(word) && !/(?:ous|ics|sis|ness|less)$/.test(word)) return word.slice(0, -1);
  return undefined;
}

/** Items without repeats (case-insensitive, first spelling kept) and without empty strings, in order. */
export function uniqueTexts(items: Iterable<string>): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const item of items) {
    const text = item.replace(/\s+/g, " ").trim();
    const key = text.toLowerCase();
    if (text === "" || seen.has(key)) continue;
    seen.add(key);
    kept.push(text);
  }
  return kept;
}

const CJK_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/** Characters of scripts written without spaces between words. */
export function cjkCharacters(text: string): number {
  return text.match(CJK_CHARACTER)?.length ?? 0;
}

/** Words of a text, counting two CJK characters as one word (a typical Chinese word's length). */
export function textWords(text: string): number {
  const spaced = text
    .replace(CJK_CHARACTER, " ")
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return spaced + Math.ceil(cjkCharacters(text) / 2);
}
