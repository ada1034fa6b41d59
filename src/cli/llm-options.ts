import { InvalidArgumentError, Option, type Command } from "commander";
import { createError } from "../errors.js";
import { EXPANDER_CHOICES, LLM_DEFAULTS, type ExpanderChoice, type LlmSettings } from "../expand/llm-settings.js";

export interface LlmOptionValues {
  expander?: ExpanderChoice;
  llmModel?: string;
  llmBaseUrl?: string;
  llmConcurrency: number;
  llmTimeout: number;
  llmRetries: number;
}

/** The LLM options shared by `index` and `expand`; each flag beats its environment variable, which beats the default. */
export function addLlmOptions(command: Command, withExpander: boolean): Command {
  if (withExpander) {
    command.addOption(
      new Option("--expander <name>", "who writes manifests: auto (the LLM when one is configured), llm or heuristic").choices(EXPANDER_CHOICES).env("ROUTER_EXPANDER").default("auto"),
    );
  }
  return command
    .addOption(new Option("--llm-model <name>", "chat model that writes manifests; setting it turns the LLM expander on").env("ROUTER_LLM_MODEL"))
    .addOption(new Option("--llm-base-url <url>", "OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1 for Ollama (default: the OpenAI API)").env("OPENAI_BASE_URL"))
    .addOption(new Option("--llm-concurrency <n>", "requests in flight at once").env("ROUTER_LLM_CONCURRENCY").argParser(positiveInteger).default(LLM_DEFAULTS.concurrency))
    .addOption(new Option("--llm-timeout <ms>", "time out one request after this many milliseconds").env("ROUTER_LLM_TIMEOUT_MS").argParser(positiveInteger).default(LLM_DEFAULTS.timeoutMs))
    .addOption(
      new Option("--llm-retries <n>", "further attempts per skill (rate limits, server errors, timeouts, unusable answers)")
        .env("ROUTER_LLM_RETRIES")
        .argParser(nonNegativeInteger)
        .default(LLM_DEFAULTS.retries),
    );
}

/** The LLM settings the options describe, or undefined when no model is set. The API key comes from OPENAI_API_KEY only. */
export function llmSettings(values: LlmOptionValues, env: NodeJS.ProcessEnv = process.env): LlmSettings | undefined {
  const model = values.llmModel?.trim();
  if (!model) return undefined;
  const apiKey = env["OPENAI_API_KEY"]?.trim() || undefined;
  const baseURL = values.llmBaseUrl?.trim() || undefined;
  if (!apiKey && !baseURL) {
    throw createError(
      "LLM_NOT_CONFIGURED",
      `an LLM model (${model}) is set but neither OPENAI_API_KEY (for the OpenAI API) nor OPENAI_BASE_URL / --llm-base-url (for Ollama, vLLM, LM Studio, OpenRouter, ...)`,
    );
  }
  return { model, baseURL, apiKey, concurrency: values.llmConcurrency, timeoutMs: values.llmTimeout, retries: values.llmRetries };
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError("expected a whole number of 1 or more");
  return number;
}

function nonNegativeInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError("expected a whole number of 0 or more");
  return number;
}
