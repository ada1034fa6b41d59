/** How to reach an OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, LM Studio, OpenRouter, ...). */
export interface LlmSettings {
  model: string;
  /** Defaults to the OpenAI API. */
  baseURL?: string;
  /** Local servers need none. */
  apiKey?: string;
  /** Requests in flight at once. */
  concurrency: number;
  /** Per request. */
  timeoutMs: number;
  /**
   * Further attempts per skill after the first, for rate limits, server errors, timeouts (retried by the openai SDK,
   * with exponential backoff and jitter) and unusable answers (asked again with the reason).
   */
  retries: number;
}

export const LLM_DEFAULTS = { concurrency: 4, timeoutMs: 60_000, retries: 3 } as const;

/** Which expander writes manifests: the LLM when one is configured (`auto`), or always one of them. */
export type ExpanderChoice = "auto" | "llm" | "heuristic";
export const EXPANDER_CHOICES: readonly ExpanderChoice[] = ["auto", "llm", "heuristic"];
