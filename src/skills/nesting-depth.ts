/**
 * How deep `[` and `{` nest in a text, counted without parsing it (so a hostile file costs one linear scan).
 * With `jsonStrings`, brackets inside JSON strings do not count; otherwise every bracket counts, an
 * over-estimate that suits YAML, whose quoting rules a scan cannot follow.
 * Stops counting once the depth passes `stopAbove`.
 */
export function bracketDepth(text: string, stopAbove: number, jsonStrings: boolean): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE && jsonStrings) inString = true;
    else if (char === OPEN_SQUARE || char === OPEN_CURLY) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > stopAbove) return deepest;
    } else if ((char === CLOSE_SQUARE || char === CLOSE_CURLY) && depth > 0) depth--;
  }
  return deepest;
}

const BACKSLASH = 0x5c;
const QUOTE = 0x22;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;
