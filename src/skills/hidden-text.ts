// Characters a model reads and a person does not see: what attackers use to hide instructions in a skill or tool text.

// Unicode tag characters mirror ASCII one for one (U+E0020 is a space, U+E0041 an "A"): text written in them is invisible.
const TAG_CHARACTERS = /[\u{E0000}-\u{E007F}]/gu;
// Bidi embeddings, overrides and isolates reorder what is shown without changing what is read ("Trojan Source").
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
// Zero-width characters with no use between letters of a Latin text (joiners stay legitimate inside emoji and Indic or Persian words).
const ZERO_WIDTH = /[\u200B\u2060\u180E\uFEFF]|(?<=[\x20-\x7E])[\u200C\u200D](?=[\x20-\x7E])/g;
// A stray zero-width space is a copy-paste accident; this many on one line is a pattern.
const ZERO_WIDTH_PER_LINE = 3;

// Every character the three patterns above can match, so a text without any is known to hide nothing in one pass.
const ANY_HIDDEN = /[\u{E0000}-\u{E007F}\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2060\u180E\uFEFF]/u;

/** Whether the text holds any character a person does not see (one of those the patterns above count). */
export function hasHiddenText(text: string): boolean {
  return ANY_HIDDEN.test(text);
}

/** What a line hides: tag text decoded to ASCII, and how many bidi controls and zero-width characters it holds. */
export interface HiddenText {
  tagText: string;
  bidiControls: number;
  zeroWidth: number;
}

export function hiddenTextOf(line: string): HiddenText {
  const tags = line.match(TAG_CHARACTERS) ?? [];
  return {
    tagText: tags.map((tag) => String.fromCodePoint(tag.codePointAt(0)! - 0xe0000)).join(""),
    bidiControls: (line.match(BIDI_CONTROLS) ?? []).length,
    zeroWidth: (line.match(ZERO_WIDTH) ?? []).length,
  };
}

/** Whether a line hides something on purpose (see HiddenText), and in words what. */
export function describeHidden({ tagText, bidiControls, zeroWidth }: HiddenText): string | undefined {
  const parts = [
    ...(tagText !== "" ? [`invisible tag characters spelling "${tagText}"`] : []),
    ...(bidiControls > 0 ? [`${bidiControls} bidirectional control character${bidiControls === 1 ? "" : "s"}`] : []),
    ...(zeroWidth >= ZERO_WIDTH_PER_LINE ? [`${zeroWidth} zero-width characters`] : []),
  ];
  return parts.length > 0 ? parts.join(", ") : undefined;
}

/** The line as a model reads its words: invisible characters out, so they cannot split a phrase the rules look for. */
export function visibleText(line: string): string {
  return line.replace(TAG_CHARACTERS, "").replace(BIDI_CONTROLS, "").replace(ZERO_WIDTH, "");
}
