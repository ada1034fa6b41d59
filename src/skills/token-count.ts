import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";

// o200k_base (GPT-4o family) through js-tiktoken: a real BPE tokenizer. Claude's tokenizer is not public,
// so counts for other models are an estimate of the same order.
export const TOKENIZER_NAME = "o200k_base (js-tiktoken)";

let encoder: Tiktoken | undefined;

/** Tokens the text costs; loading the ranks takes about half a second, so it happens on first use. */
export function countTokens(text: string): number {
  encoder ??= new Tiktoken(o200kBase);
  // Special-token strings inside a skill are plain text to us, not control tokens.
  return encoder.encode(text, [], []).length;
}
