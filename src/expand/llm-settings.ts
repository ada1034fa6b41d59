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
  /** Further attempts per skill after the first, for rate limits, server errors, timeouts and unusable answers. */
  retries: number;
  /** First backoff delay; it doubles with each retry (a Retry-After header wins when longer). */
  retryBaseMs: number;
}

export const LLM_DEFAULTS = { concurrency: 4, timeoutMs: 60_000, retries: 3, retryBaseMs: 1_000 } as const;

/** Which expander writes manifests: the LLM when one is configured (`auto`), or always one of them. */
export type ExpanderChoice = "auto" | "llm" | "heuristic";
export const EXPANDER_CHOICES: readonly ExpanderChoice[] = ["auto", "llm", "heuristic"];
