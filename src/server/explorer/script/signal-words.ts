// Signals in a person's words; the API's own name stays as the label's tooltip (docs/routing.md lists them).
const SIGNAL_WORDS: Record<string, string> = {
  q2q_max: "closest example request",
  q2q_topk: "3 closest example requests",
  q2d: "description",
  q2c: "skill as a whole",
  bm25: "words in common (BM25)",
  keyword_hits: "keywords matched",
  phrase_hits: "phrases matched",
  negative: "near-miss penalty",
  rerank: "cross-encoder",
};

/** A signal's label: its words, or its own name for a signal this page does not know yet. */
export function signalWords(name: string): string {
  return SIGNAL_WORDS[name] ?? name;
}

/** Whose weights the router fuses signals with, from the fusion's origin (a provenance string kept for the tooltip). */
export function weightsOf(origin: string): string {
  if (/^defaults\b/.test(origin)) return "default weights";
  return /^router fit\b/.test(origin) ? "weights from router fit" : "custom weights";
}
