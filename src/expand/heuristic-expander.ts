import { EXCLUSION_CUES } from "../text/excluded-uses.js";
import { readableName } from "../text/readable-name.js";
import type { ExpansionSubject } from "./expansion-subject.js";
import type { Manifest } from "./manifest.js";
import { markdownSections, proseOf, quotedPhrases, splitList, splitSentences, type MarkdownSection } from "./prose.js";
import { baseForm, cjkCharacters, contentWords, isContentWord, textWords, uniqueTexts, words } from "./terms.js";
import { toolParameters, type ToolParameter } from "./tool-parameters.js";

/** Stored in the index: a new version makes the next `router index` expand every skill again. */
export const HEURISTIC_VERSION = "8";

const MAX_QUERIES = 20;
const MAX_KEYWORDS = 20;
const MAX_PHRASES = 10;
const MAX_NEGATIVES = 10;
const MAX_PHRASE_WORDS = 6;
const MAX_QUERY_WORDS = 30;

/** Any of the cues, then the clause after it (captured). */
function cuePattern(cues: string[]): RegExp {
  return new RegExp(`(?:${cues.join("|")})${String.raw`[:：\s-]*(.+)`}`, "i");
}

// What skill authors write before the situations a skill is for, in the languages real skills use.
const USE_WHEN = cuePattern([
  String.raw`\b(?:use (?:this |it |the )?(?:skill |tool )?(?:when(?:ever)?|for|if|to|after|before|during)|be used when(?:ever)?|when to use(?: this skill| it)?|use it when|triggers? (?:when|on|for)|triggers?(?=\s*[:：])|trigger phrases?|invoke (?:when|for)|activate (?:when|for|on)|useful (?:when|for)|applies (?:when|to))\b`,
  String.raw`\b(?:usar|úsal[oa]|utiliza(?:r)?|úsese) (?:cuando|para)\b`,
  "(?:适用于|适用场景|使用场景|触发词|触发条件|何时使用|用于)",
]);
// In the body only a trigger that names the skill counts: "use it for" or "useful for" there is about a tool or a step.
const BODY_USE_WHEN = cuePattern([
  String.raw`\b(?:use this skill (?:when(?:ever)?|for|if|to)|when to use this skill|this skill (?:is for|applies (?:when|to))|triggers? (?:when|on|for)|trigger phrases?|(?:invoke|activate) this skill (?:when|for|on))\b`,
  String.raw`\b(?:usa|usar|utiliza) (?:esta|este) (?:skill|habilidad) (?:cuando|para)\b`,
  "(?:适用于|适用场景|使用场景|触发词|触发条件|何时使用)",
]);
// ... and before what it is not for.
const NOT_FOR = cuePattern(EXCLUSION_CUES);
// "For tracking implementation, see analytics-tracking": those requests belong to another skill.
const REFERRAL = /^for (.+?),\s*(?:see|use)\s/i;
// A section on when to use the skill starts with the trigger words ("When to Use", "Trigger Phrases", "Common Use
// Cases"); "Step 1: Generate trigger eval queries" or "Retraining Triggers" name a topic, and their items are no requests.
const USE_WHEN_HEADING =
  /^[^\p{L}]*(?:when to use|use (?:this skill |this |it )?(?:when|for|if)|(?:natural language )?triggers?\b|trigger (?:phrases|terms|words|conditions)|(?:common |example |typical )?use cases|cuándo usar)|使用场景|适用场景|何时使用|触发/iu;
const NOT_FOR_HEADING = /\b(?:when not to use|do not use|don't use|not for|avoid|anti-?patterns?|when to avoid|limitations|non-?goals|out of scope|no usar)\b|不要(?!求)|不适用|不用于/i;
// Headings every skill has: they name a part of the document, not something a user asks for.
const GENERIC_HEADING =
  /^(?:overview|introduction|intro|usage|how to use|examples?(?: usage)?|instructions|notes?|references?|requirements|installation|install|setup|steps?(?: \d+)?|prerequisites|output|input|quick ?start|getting started|guidelines|best practices|resources|configuration|summary|description|purpose|workflow|tips|faq|license|parameters|arguments|options|returns|see also|related(?: skills)?|core principles|process|important|common (?:mistakes|pitfalls)|checklist|contents|table of contents|background|context|details|api|reference|scripts?|files|structure|directory structure|output format|error handling|troubleshooting|version(?: history)?|changelog|credits|author|support|principles|rules|constraints|approach|method(?:ology)?|phase \d+.*|step \d+.*|\d+\..*)$/i;

/**
 * The deterministic offline expander: no LLM, the same manifest for the same skill every time. Queries come
 * from what authors write for routing (quoted trigger phrases, "use when" clauses and sections, the
 * description's sentences and list items), keywords and phrases from the name, description, headings and
 * tool parameters, negatives from "not for" sentences and "when not to use" sections.
 */
export function heuristicManifest(subject: ExpansionSubject): Manifest {
  const humanName = readableName(subject.metadata.toolName ?? subject.name).toLowerCase();
  const sentences = splitSentences(subject.description);
  const sections = subject.kind === "skill" ? markdownSections(subject.body) : [];
  const parameters = toolParameters(subject.metadata.parameters);

  const negativeSentences = sentences.filter((sentence) => (NOT_FOR.test(sentence) && !USE_WHEN.test(sentence.split(NOT_FOR)[0] ?? "")) || REFERRAL.test(sentence));
  const positiveSentences = sentences.filter((sentence) => !negativeSentences.includes(sentence));
  const bodySentences = sections.flatMap((section) => section.items.flatMap((item) => splitSentences(item.text)));
  const bodyTriggers = bodySentences.filter((sentence) => !opensOrClosesQuote(sentence)).flatMap((sentence) => clauseAfter(BODY_USE_WHEN, sentence));
  const useWhen = uniqueTexts([...positiveSentences.flatMap((sentence) => clauseAfter(USE_WHEN, sentence)), ...bodyTriggers, ...triggerItems(sections)]);
  const referredAway = negativeSentences.flatMap((sentence) => REFERRAL.exec(sentence)?.[1] ?? []);
  const notFor = uniqueTexts([
    ...[...negativeSentences, ...bodySentences].flatMap((sentence) => clauseAfter(NOT_FOR, sentence)).flatMap(exclusionRequests),
    ...referredAway,
    ...exclusionItems(sections),
  ]);
  const quoted = quotedPhrases([subject.description, ...useWhen].join("\n")).filter((phrase) => !notFor.some((negative) => negative.includes(phrase)));
  const headings = topicHeadings(sections, subject.name);

  const descriptionPieces = positiveSentences.flatMap((sentence) => {
    const plain = sentence.replace(USE_WHEN, "").trim();
    // What comes before a cue ("Claude should", "You MUST") is a request only if it says something.
    if (plain === "" || (plain !== sentence.trim() && !isQueryLike(plain))) return [];
    return [plain, ...splitList(plain).filter((item) => item !== plain && isQueryLike(item))];
  });
  const queries = uniqueTexts([...quoted, ...useWhen.flatMap(clauseRequests), ...descriptionPieces.map(asRequest), humanName])
    .filter((query) => query.split(/\s+/).length <= MAX_QUERY_WORDS)
    .slice(0, MAX_QUERIES);

  // A phrase says more than its words only with two of them: "to write" (from "to write or improve a commit message")
  // or a heading "Format" would match every message with that one word, as a keyword does already.
  const wordGroups = [...useWhen.flatMap(unquotedItems), ...headings].filter((phrase) => contentWords(phrase).length >= 2);
  const phrases = uniqueTexts([...quoted, ...wordGroups, ...(humanName.includes(" ") ? [humanName] : []), ...contentBigrams(positiveSentences.join(". "))])
    .map((phrase) => phrase.toLowerCase())
    .filter((phrase) => phrase.split(/\s+/).length <= MAX_PHRASE_WORDS)
    .slice(0, MAX_PHRASES);

  const negatives = notFor.slice(0, MAX_NEGATIVES);
  return {
    queries: queries.length > 0 ? queries : [humanName],
    keywords: rankKeywords(subject, humanName, positiveSentences.join(". "), [...useWhen, ...headings], parameters),
    phrases,
    negatives,
    negative_constraint: negatives.length > 0 ? `Not for: ${negatives.join("; ")}` : "",
    category: subject.metadata.metadata?.["category"] ?? subject.metadata.server ?? subject.kind,
  };
}

/** A clause's list items as phrases; a clause that quotes its requests has them as quoted phrases already. */
function unquotedItems(clause: string): string[] {
  return quotedPhrases(clause).length === 0 ? splitList(clause) : [];
}

/** A clause and its list items as requests; one that quotes its requests has them as quoted phrases already. */
function clauseRequests(clause: string): string[] {
  const quoted = quotedPhrases(clause);
  if (quoted.length === 0) return [clause, ...splitList(clause).filter(isQueryLike)];
  const unquoted = quoted.reduce((rest, phrase) => rest.replace(phrase, ""), clause);
  // '"check pod logs", "restart a deployment"' says nothing beyond its quotes.
  if (!/\p{L}/u.test(unquoted.replace(/\b(?:or|and)\b/gi, ""))) return [];
  // '"check pod logs", "restart a deployment", or mentions pod health' adds the request after its list.
  const listTail = LIST_TAIL.exec(unquoted);
  if (quoted.length >= 2 && listTail) {
    const tail = listTail[1]!.replace(/[\s,;.]+$/, "");
    return isQueryLike(tail) ? [tail] : [];
  }
  // Quotes inside a sentence ('"CORS blocked" errors in the console') leave the sentence the request.
  return [clause];
}

// How authors say what a user types: "the user mentions X", "or says X".
const SAYS = String.raw`(?:asks?|talks?) about|mentions?|says?|types?|writes?`;
// A list of quoted requests, then ", or [when the user] mentions X": the quotes are gone, separators and X are left.
const LIST_TAIL = new RegExp(String.raw`^[\s"“”'‘’,;]*(?:(?:or|and)[\s"“”'‘’,;]*)*(?:,\s*)?(?:or|and)\s+(?:(?:if|when)\s+)?(?:(?:the|a) user\s+)?(?:${SAYS})?\s*([^"“”]+)$`, "i");

/** An exclusion clause's list items, each a near miss of its own ("SQL SAVEPOINT, ordinary summaries, ..."); a clause that is no list stays whole. */
function exclusionRequests(clause: string): string[] {
  const items = splitList(clause);
  return items.length >= 2 ? items : [clause];
}

/** A list item long enough to stand for a request on its own ("with kubectl" is not). */
function isQueryLike(item: string): boolean {
  return contentWords(item).length >= 2 || cjkCharacters(item) >= 4;
}

const QUOTE_BEFORE = /["“'‘`]$/;

/** A sentence with an odd number of double quotes is part of a quotation (an example description), not the author's words. */
function opensOrClosesQuote(sentence: string): boolean {
  return (sentence.match(/["“”]/g)?.length ?? 0) % 2 === 1;
}

// "Use when the user asks to / mentions / says X": X is the request.
const USER_SAYS = new RegExp(String.raw`^(?:the user|you|a user)\s+(?:${SAYS}|(?:asks?|wants?|needs?)(?:\s+to)?)\s+`, "i");

/** The clause after a trigger ("Use when X" -> X), split into its list items when it is a list. */
function clauseAfter(pattern: RegExp, sentence: string): string[] {
  const match = pattern.exec(sentence);
  // A quoted trigger ('All "when to use" info goes here') is mentioned, not used.
  if (match && QUOTE_BEFORE.test(sentence.slice(0, match.index))) return [];
  // "不用于 X" holds "用于 X": an exclusion that starts first is never a trigger.
  if (pattern !== NOT_FOR && match && (NOT_FOR.exec(sentence)?.index ?? Infinity) <= match.index) return [];
  const clause = match?.[1]?.trim().replace(USER_SAYS, "");
  if (!clause) return [];
  // A negative clause inside a positive sentence ("use for X, not for Y") belongs to the negatives only.
  const positive =
    pattern === NOT_FOR
      ? clause
      : clause
          .split(NOT_FOR)[0]!
          .replace(/[,;\s-]+$/, "")
          .trim();
  return textWords(positive) >= 2 ? [positive] : [];
}

/**
 * The items of "when to use" sections (not "when not to use") and of lists labelled so in any section ("**Use this
 * skill when:**"), sentence by sentence, without their exclusions.
 */
function triggerItems(sections: MarkdownSection[]): string[] {
  return sections
    .flatMap((section) =>
      USE_WHEN_HEADING.test(section.heading) && !NOT_FOR_HEADING.test(section.heading)
        ? section.items.filter((item) => !isExclusionLabel(item.label))
        : section.items.filter((item) => isTriggerLabel(item.label)),
    )
    .flatMap((item) => splitSentences(item.text))
    .filter((item) => !NOT_FOR.test(item) && textWords(item) >= 2);
}

// A label over a list of triggers anywhere in the body names the skill ("Use this skill when", "This skill should be
// used when"): "Common use cases:" in a section on closures lists uses of closures.
const TRIGGER_LABEL = /\b(?:(?:use|activate|apply|invoke) this skill|should be used) (?:when|for|if|to)\b/i;

function isTriggerLabel(label: string | undefined): boolean {
  return label !== undefined && !isExclusionLabel(label) && TRIGGER_LABEL.test(label);
}

/**
 * What a "when not to use" or "anti-patterns" section, or a list labelled so in any section ("**Don't use when:**"),
 * excludes: each item's first sentence, and of an item that explains itself ("Detailed long-term planning - you'll
 * abandon it"), the part before the dash.
 */
function exclusionItems(sections: MarkdownSection[]): string[] {
  return sections
    .flatMap((section) => (NOT_FOR_HEADING.test(section.heading) ? section.items : section.items.filter((item) => isExclusionLabel(item.label))))
    .map((item) => splitSentences(item.text)[0] ?? "")
    .map((item) => item.split(/\s[-–—]\s/)[0]!.trim())
    .filter((item) => textWords(item) >= 2);
}

// Labels of a list of what the skill is not for: "Don't use when", "NOT for", "Exceptions", "Skip for", "Use X
// instead for". A bare "Do not use:" or "Avoid:" in a body heads advice on the work ("Do not use abbreviations:").
const EXCLUSION_LABEL =
  /^(?:exceptions?|(?:do not|don't|never) (?:use|activate|invoke|apply|trigger) (?:this skill |this |it )?(?:when|for|if|to)|(?:is )?not (?:for|suitable for|intended for|meant for)|when not to use|skip (?:this skill |this |it )?(?:when|for|if)|use .+ instead)\b/i;

function isExclusionLabel(label: string | undefined): boolean {
  return label !== undefined && EXCLUSION_LABEL.test(label);
}

/** Headings that name a topic of this skill (not "Overview", "Examples", or the skill's own name). */
function topicHeadings(sections: MarkdownSection[], name: string): string[] {
  const own = words(name).join(" ");
  return uniqueTexts(
    sections
      .filter((section) => section.level >= 2 && section.level <= 3)
      // "2. Setup", "⚙️ Setup": numbering and emoji are no part of the topic, and hide a generic heading.
      .map((section) => section.heading.replace(/^(?:[\d.]+\s+|[^\p{L}\p{N}]+)+/u, "").replace(/[:.]+$/, ""))
      .filter((heading) => !GENERIC_HEADING.test(heading) && !USE_WHEN_HEADING.test(heading) && !NOT_FOR_HEADING.test(heading))
      .filter((heading) => words(heading).join(" ") !== own && heading.length <= 60 && contentWords(heading).length > 0),
  );
}

/** "Calculates the area of a circle" -> "calculate the area of a circle": the way a user phrases the same need. */
function asRequest(sentence: string): string {
  const [first = "", ...rest] = sentence.split(/\s+/);
  const base = /^[A-Z][a-z]+s$/.test(first) ? baseForm(first.toLowerCase()) : undefined;
  return base ? [base, ...rest].join(" ") : sentence;
}

/** Adjacent content-word pairs of the description ("learning activities", "sql query"): phrases users type. */
function contentBigrams(text: string): string[] {
  const pairs: string[] = [];
  for (const segment of splitSentences(text).flatMap((sentence) => sentence.split(/[,;:()]|\s[-–—]\s/))) {
    const tokens = words(segment);
    for (let i = 0; i + 1 < tokens.length; i++) {
      if (isContentWord(tokens[i]!) && isContentWord(tokens[i + 1]!) && tokens[i]!.length > 2 && tokens[i + 1]!.length > 2) pairs.push(`${tokens[i]} ${tokens[i + 1]}`);
    }
  }
  return pairs;
}

/**
 * Keywords by a fixed score: technical terms (acronyms, identifiers, words with digits) and name words first,
 * then parameter names and enum values, then frequent description words; base forms of inflected words follow
 * their word, so "queries" also matches "query". Ties keep first appearance, so the order never changes.
 */
function rankKeywords(subject: ExpansionSubject, humanName: string, positiveText: string, extra: string[], parameters: ToolParameter[]): string[] {
  const scores = new Map<string, number>();
  const add = (word: string, score: number): void => {
    if (!isContentWord(word) || word.length < 3 || SKILL_FOLDER_WORDS.has(word)) return;
    scores.set(word, (scores.get(word) ?? 0) + score);
  };
  for (const word of words(humanName)) add(word, 4);
  for (const term of technicalTerms([subject.description, subject.kind === "skill" ? proseOf(subject.body) : ""].join("\n"))) add(term, 3);
  for (const name of properNames(positiveText)) add(name, 3);
  for (const parameter of parameters) {
    for (const word of words(parameter.name)) add(word, 2);
    for (const value of parameter.enumValues) for (const word of words(value)) add(word, 1);
    for (const word of words(parameter.description)) add(word, 1);
  }
  // Not the exclusions: "For tracking, see analytics-tracking" is no keyword "tracking".
  for (const word of words(keepCamelCaseWhole([positiveText, ...extra].join(" ")))) add(word, 1);
  const ranked = [...scores].sort((a, b) => b[1] - a[1]).map(([word]) => word);
  return uniqueTexts(ranked.flatMap((word) => [word, baseForm(word) ?? ""])).slice(0, MAX_KEYWORDS);
}

// The parts of a skill folder (references/, scripts/, SKILL.md) that bodies mention: no user asks for them.
const SKILL_FOLDER_WORDS = new Set("references reference scripts script assets asset templates template examples example readme skill docs md".split(" "));

/** Capitalised words inside a sentence (Ratatui, Textual, Ink): products and proper names users type as they are. */
function properNames(text: string): string[] {
  return splitSentences(text).flatMap((sentence) =>
    sentence
      .split(/\s+/)
      .slice(1)
      .map((token) => token.replace(/^[("'“‘]+|[)"'”’.,;:!?]+$/g, ""))
      .filter((token) => /^[A-Z][a-z][A-Za-z0-9]*$/.test(token))
      .map((token) => token.toLowerCase()),
  );
}

// CamelCase terms (CrashLoopBackOff, OOMKilled) are what users paste: they stay whole words.
const CAMEL_CASE = /\b(?=[A-Za-z0-9]*[a-z])[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*\b/g;

function keepCamelCaseWhole(text: string): string {
  return text.replace(CAMEL_CASE, (term) => term.toLowerCase());
}

// A folder in it, or a markdown file: the skill's own documents (users do type "package.json" or "node.js").
const FILE_PATH = /\/|\.mdx?$/i;

// The most frequent words in capitals across the shared skill corpus that are not acronyms (MUST and NOT are stopwords):
// emphasis (CRITICAL), markers left in prose (TODO, FIXME), date patterns (YYYY) and licence names (MIT).
const EMPHASIS = new Set("critical important mandatory required never always stop first yes ok note warning warn todo fixme yyyy mm dd hh mit bsd license arguments".split(" "));

/** Acronyms (SQL, PDF), identifiers in backticks and words with digits (k8s, s3): rare words worth an exact match. */
function technicalTerms(text: string): string[] {
  // Not a file name (SKILL.md, SOUL.md) and not one of those words in capitals.
  const acronyms = (text.match(/\b[A-Z][A-Z0-9]{1,9}s?\b(?!\.[a-z])/g) ?? []).filter((term) => !EMPHASIS.has(term.toLowerCase()));
  const camelCase = text.match(CAMEL_CASE) ?? [];
  const code = [...text.matchAll(/`([^`\s]{2,40})`/g)].map((match) => match[1]!).filter((span) => !FILE_PATH.test(span));
  const alphanumeric = text.match(/\b(?=[a-z0-9]*[a-z])(?=[a-z0-9]*\d)[a-z0-9]{2,12}\b/gi) ?? [];
  return [...acronyms.flatMap(words), ...camelCase.map((term) => term.toLowerCase()), ...[...code, ...alphanumeric].flatMap((term) => words(keepCamelCaseWhole(term)))];
}
