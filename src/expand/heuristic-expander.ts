import { readableName } from "../skills/readable-name.js";
import type { ExpansionSubject } from "./expansion-subject.js";
import type { Manifest } from "./manifest.js";

const MAX_QUERIES = 20;
const MAX_KEYWORDS = 20;
const MAX_PHRASES = 10;
const STOPWORDS = new Set(
  "a an and are as at be but by can do does for from has have how i if in into is it its of on or our should so than that the their then there these this to use used uses using via was we what when where which while who will with you your user users skill tool tools".split(
    " ",
  ),
);
const USE_WHEN = /\b(?:use (?:this )?(?:skill |tool )?(?:when|for|to|if)|when to use|use it when|triggers? (?:when|on))\b[:\s-]*(.+)/i;
const NEGATIVE = /\b(?:do not use|don't use|not for|not recommended for|never use|avoid using|should not be used)\b[:\s-]*(.+)/i;

/**
 * The deterministic offline expander: no LLM, the same manifest for the same skill every time. It draws on
 * the name, the description, "use when" sentences, headings and tool parameter names.
 */
export function heuristicManifest(subject: ExpansionSubject): Manifest {
  const sentences = splitSentences(subject.description);
  const headings = [...subject.body.matchAll(/^#{1,3}\s+(.+)$/gm)].map((match) => match[1]!.trim()).filter((heading) => heading.length < 80);
  const parameters = parameterNames(subject.metadata.parameters);
  const useWhen = sentences.map((sentence) => USE_WHEN.exec(sentence)?.[1]?.trim()).filter((clause): clause is string => Boolean(clause));
  const negatives = sentences.map((sentence) => NEGATIVE.exec(sentence)?.[1]?.trim()).filter((clause): clause is string => Boolean(clause));
  const positives = sentences.filter((sentence) => !NEGATIVE.test(sentence));
  const humanName = humanise(subject.metadata.toolName ?? subject.name);

  const queries = unique([humanName, ...useWhen, ...positives, ...headings.map((heading) => `${heading} ${humanName}`)]).slice(0, MAX_QUERIES);
  const keywords = rankKeywords([subject.name, subject.description, ...headings, ...parameters].join(" ")).slice(0, MAX_KEYWORDS);
  const phrases = unique([...useWhen, ...headings]).filter((phrase) => phrase.split(" ").length <= 8).slice(0, MAX_PHRASES);
  return {
    queries: queries.length > 0 ? queries : [humanName],
    keywords,
    phrases,
    negatives: unique(negatives),
    negative_constraint: negatives.length > 0 ? `Not for: ${negatives.join("; ")}` : "",
    category: subject.kind,
  };
}

function splitSentences(text: string): string[] {
  return text
    .replace(/\*\*/g, "")
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim().replace(/[.!?]+$/, ""))
    .filter((sentence) => sentence.length > 3);
}

function humanise(name: string): string {
  return readableName(name).toLowerCase();
}

function parameterNames(schema: unknown): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== "object" || properties === null) return [];
  return Object.keys(properties).map(humanise);
}

/** Content words by frequency, ties broken alphabetically so the order never changes. */
function rankKeywords(text: string): string[] {
  const counts = new Map<string, number>();
  for (const word of humanise(text).match(/[a-z0-9][a-z0-9+#]*/g) ?? []) {
    if (word.length < 3 || STOPWORDS.has(word) || /^\d+$/.test(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([word]) => word);
}

function unique(items: string[]): string[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.toLowerCase();
    if (item === "" || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
