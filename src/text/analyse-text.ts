// The two functions used, by file: the package's index also loads wink-nlp and its English model (some 60 MB of RSS).
import porterStem from "wink-nlp-utils/src/string-stem.js";
import removeWords from "wink-nlp-utils/src/tokens-remove-words.js";

const stems = new Map<string, string>();

// Scripts written without spaces between words (and Hangul, whose words carry attached particles).
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const WORD = /[\p{L}\p{N}]+(?:[_.'+#-]?[\p{L}\p{N}]+)*/gu;

/**
 * Text -> stemmed content terms, the same way for skills and queries. Identifiers are kept whole and also
 * split (`getCurrentWeather`, `get_current_weather` -> getcurrentweather, get, current, weather), so both
 * `crashloopbackoff` and `CrashLoopBackOff` match. CJK text becomes overlapping character pairs, as in
 * CJK search engines: no dictionary is needed and a word matches inside any longer run that holds it.
 */
export function analyseText(text: string): string[] {
  const terms: string[] = [];
  for (const run of text.match(CJK_RUN) ?? []) terms.push(...characterPairs(run));
  for (const raw of text.replace(CJK_RUN, " ").match(WORD) ?? []) {
    const parts = raw
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
      .replace(/[_.'+#-]+/g, " ")
      .toLowerCase()
      .split(" ")
      .filter(Boolean);
    const whole = parts.join("");
    const words = removeWords(parts.length > 1 ? [whole, ...parts] : [whole]);
    terms.push(...words.map(stem));
  }
  return terms;
}

/** "投资者报告" -> 投资, 资者, 者报, 报告; a lone character stays itself. */
function characterPairs(run: string): string[] {
  const characters = [...run];
  if (characters.length === 1) return characters;
  return characters.slice(1).map((character, index) => characters[index]! + character);
}

function stem(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = /\d/.test(word) ? word : porterStem(word);
    if (stems.size < 200_000) stems.set(word, stemmed);
  }
  return stemmed;
}
