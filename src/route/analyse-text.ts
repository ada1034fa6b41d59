import nlp from "wink-nlp-utils";

const stems = new Map<string, string>();

/**
 * Text -> stemmed content terms, the same way for skills and queries. Identifiers are kept whole and also
 * split (`getCurrentWeather`, `get_current_weather` -> getcurrentweather, get, current, weather), so both
 * `crashloopbackoff` and `CrashLoopBackOff` match.
 */
export function analyseText(text: string): string[] {
  const terms: string[] = [];
  for (const raw of text.match(/[\p{L}\p{N}]+(?:[_.'+#-]?[\p{L}\p{N}]+)*/gu) ?? []) {
    const parts = raw
      .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
      .replace(/[_.'+#-]+/g, " ")
      .toLowerCase()
      .split(" ")
      .filter(Boolean);
    const whole = parts.join("");
    terms.push(whole);
    if (parts.length > 1) terms.push(...parts);
  }
  return nlp.tokens.removeWords(terms).map(stem);
}

function stem(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = /\d/.test(word) ? word : nlp.string.stem(word);
    if (stems.size < 200_000) stems.set(word, stemmed);
  }
  return stemmed;
}
