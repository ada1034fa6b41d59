import { textWords } from "./terms.js";

// Splitting skill prose (descriptions, markdown bodies) into the pieces the heuristic expander reuses.

/** Sentences of a prose text, without markdown emphasis and trailing punctuation. */
export function splitSentences(text: string): string[] {
  return (
    stripInlineMarkdown(text)
      // A sentence may end inside a quotation: 'or "hypothesis." For tracking, see ...'.
      .split(/(?<=[.!?]["'”’]?)\s+(?=[A-Z0-9"'`(])|(?<=[。！？；])|\n+/)
      .map((sentence) =>
        sentence
          .trim()
          .replace(/^[-*+>]\s+|^\d+[.)]\s+/, "")
          .replace(/[.!?:;,。！？；，：]+$/, "")
          .trim(),
      )
      .filter((sentence) => sentence.length > 3)
  );
}

/** `**bold**`, `_em_`, `` `code` `` and [links](url) reduced to their words. */
function stripInlineMarkdown(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/`([^`]+)`/g, "$1")
    .replace(/(^|\s)[*_]([^*_\n]+)[*_](?=\s|$|[.,;:!?])/g, "$1$2");
}

/** A list sentence's items: "debugging pods, reading logs, or restarting deployments" -> three items. */
export function splitList(clause: string): string[] {
  return clause
    .split(/\s*[,;，；、]\s*(?:(?:and|or)\s+)?|\s+[-–—]\s+|\s+(?:or|and\/or)\s+(?=[a-z]+ing\b|[a-z]+s?\s)/i)
    .map(trimQuotes)
    .filter((item) => textWords(item) >= 2);
}

/** `'referral program,'` -> `referral program`: an item of a quoted list without the quotes and commas around it. */
function trimQuotes(item: string): string {
  return item.replace(/^[\s"'“”‘’]+|[\s"'“”‘’.,;:!?]+$/g, "");
}

/** Quoted phrases ('check Unraid', "show who's online"): skill authors quote the words users type. */
export function quotedPhrases(text: string): string[] {
  // Inside double quotes an apostrophe is part of the request ("what's my burn rate").
  return [...text.matchAll(/(?:^|[\s(,:])(?:["“]([^"“”\n]{4,80})["”]|['‘]([^"'“”‘’\n]{4,80})['’])(?=[\s),.;:!?]|$)/g)].map((match) => trimQuotes(match[1] ?? match[2]!));
}

export interface MarkdownSection {
  heading: string;
  /** Heading level, 1 to 6. */
  level: number;
  /** List items and paragraphs under the heading, up to the next heading; code blocks and labels left out. */
  items: SectionItem[];
}

export interface SectionItem {
  text: string;
  /** The label line a list item is listed under ("Don't use when" in "**Don't use when:**" then a list). */
  label?: string;
}

const FENCE = /^\s*(```|~~~)/;

/** The lines of a markdown body outside fenced code blocks. */
function proseLines(body: string): string[] {
  let inFence = false;
  return body.split(/\r?\n/).filter((line) => {
    if (!FENCE.test(line)) return !inFence;
    inFence = !inFence;
    return false;
  });
}

/** A markdown body without its code blocks and links: what its author wrote for people to read. */
export function proseOf(body: string): string {
  return proseLines(body)
    .join("\n")
    .replace(/\bhttps?:\/\/\S+/g, " ");
}

// A short line that ends in a colon introduces the list after it: "**Exceptions (ask your human partner):**".
const LABEL = /^(.{1,80}?)\s*[:：]$/;
const MAX_LABEL_WORDS = 8;

/** The sections of a markdown body, in order; fenced code blocks are skipped. */
export function markdownSections(body: string): MarkdownSection[] {
  const sections: MarkdownSection[] = [];
  let current: MarkdownSection | undefined;
  // The label in force: its name, and its own line among the items.
  let label: { name: string; line: SectionItem } | undefined;
  for (const line of proseLines(body)) {
    const heading = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      current = { heading: stripInlineMarkdown(heading[2]!).trim(), level: heading[1]!.length, items: [] };
      sections.push(current);
      label = undefined;
      continue;
    }
    if (!current || line.trim() === "" || line.trimStart().startsWith("|")) continue;
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.+)$/.exec(line);
    if (item) {
      // A label that heads a list is the list's name, not an item ("**Quick preview:**" over a code block stays one).
      if (label && current.items.at(-1) === label.line) current.items.pop();
      current.items.push({ text: stripInlineMarkdown(item[1]!).trim(), ...(label ? { label: label.name } : {}) });
      continue;
    }
    const paragraph: SectionItem = { text: stripInlineMarkdown(line).trim() };
    current.items.push(paragraph);
    const labelled = LABEL.exec(paragraph.text);
    // Any other paragraph line ends the labelled list.
    label = labelled && labelled[1]!.split(/\s+/).length <= MAX_LABEL_WORDS ? { name: labelled[1]!, line: paragraph } : undefined;
  }
  return sections;
}
