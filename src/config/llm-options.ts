import { createError } from "../errors.js";
import type { LlmSettings } from "../expand/llm-settings.js";
import type { Settings } from "./settings.js";

/** The LLM that writes manifests, or undefined when no model is set (or the heuristic is asked for). */
export function llmOptions(settings: Settings): LlmSettings | undefined {
  const model = settings.llmModel?.trim();
  if (!model || settings.expander === "heuristic") return undefined;
  const apiKey = settings.llmApiKey?.trim() || undefined;
  const baseURL = settings.llmBaseUrl?.trim() || undefined;
  if (!apiKey && !baseURL) {
    throw createError(
      "LLM_NOT_CONFIGURED",
      `an LLM model (${model}) is set but neither OPENAI_API_KEY (for the OpenAI API) nor OPENAI_BASE_URL / --llm-base-url (for Ollama, vLLM, LM Studio, OpenRouter, ...)`,
    );
  }
  return { model, baseURL, apiKey, concurrency: settings.llmConcurrency, timeoutMs: settings.llmTimeoutMs, retries: settings.llmRetries };
}
