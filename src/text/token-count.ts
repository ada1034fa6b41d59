import o200kBase from "js-tiktoken/ranks/o200k_base";
import { bytePairCount } from "./bpe-merge.js";

// o200k_base (GPT-4o family): its ranks and split pattern from js-tiktoken. Claude's tokenizer is not public,
// so counts for other models are an estimate of the same order.
export const TOKENIZER_NAME = "o200k_base (js-tiktoken)";

interface Encoding {
  /** Token bytes as a latin1 string (one char per byte) -> rank. */
  ranks: Map<string, number>;
  longestToken: number;
  pattern: RegExp;
}

let encoding: Encoding | undefined;

/**
 * Tokens the text costs, exactly as js-tiktoken's `encode(text, [], []).length` counts them (special-token
 * strings are plain text to us). js-tiktoken merges each piece by rescanning it after every merge, which is
 * quadratic: 25 KB without a space took 48 s. The pieces here are merged with a heap (bpe-merge.ts) instead.
 */
export function countTokens(text: string): number {
  encoding ??= loadEncoding();
  let tokens = 0;
  for (const [piece] of text.matchAll(encoding.pattern)) tokens += bytePairCount(Buffer.from(piece, "utf8").toString("latin1"), encoding.ranks, encoding.longestToken);
  return tokens;
}

/** Loads the rank file now rather than on first use: a server counts its first offer without a pause. */
export function loadTokenCounter(): void {
  encoding ??= loadEncoding();
}

/** Reads the rank file the way js-tiktoken does (`<name> <first rank> <base64 token>...` per line); about half a second, so on first use. */
function loadEncoding(): Encoding {
  const ranks = new Map<string, number>();
  let longestToken = 0;
  for (const line of o200kBase.bpe_ranks.split("\n")) {
    if (line === "") continue;
    const [, offset, ...tokens] = line.split(" ");
    const first = Number.parseInt(offset ?? "", 10);
    tokens.forEach((token, index) => {
      const bytes = Buffer.from(token, "base64").toString("latin1");
      ranks.set(bytes, first + index);
      longestToken = Math.max(longestToken, bytes.length);
    });
  }
  return { ranks, longestToken, pattern: new RegExp(o200kBase.pat_str, "gu") };
}
