import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { manifestRequestBody, type ChatMessage, type ResponseFormatKind } from "./expansion-prompt.js";
import { readCompletion, type ManifestAnswer } from "./manifest-answer.js";
import type { LlmSettings } from "./llm-settings.js";

export interface LlmStats {
  /** HTTP requests sent, retries included. */
  requests: number;
  retries: number;
  promptTokens: number;
  completionTokens: number;
  /** The response format in use: structured output until the server turns it down. */
  responseFormat: ResponseFormatKind;
  /** Set once the LLM is given up for the rest of the run, with the reason. */
  disabled: string | undefined;
}

export interface LlmManifestWriter {
  readonly model: string;
  readonly stats: LlmStats;
  /** One manifest for these messages, or why none could be had after the retries. Never throws for a server's fault. */
  write(messages: ChatMessage[]): Promise<ManifestAnswer>;
}

type Failure =
  | { kind: "retry"; reason: string } // rate limits, server errors, timeouts, dropped connections: the SDK's retries ran out
  | { kind: "format"; reason: string } // the server does not take response_format json_schema
  | { kind: "fatal"; reason: string } // nothing will work this run: bad key, unknown model or endpoint
  | { kind: "skip"; reason: string }; // this request cannot work (too long, ...): the next skill may

// Skills in a row that exhausted their retries on transport errors before the LLM is given up for the run.
const GIVE_UP_AFTER = 3;
// The SDK waits as long as a Retry-After header says; a run waits at most this long for one retry.
const MAX_RETRY_AFTER_MS = 60_000;
const FORMAT_REJECTION = /response_format|json_schema|structured|schema/i;

/**
 * Asks an OpenAI-compatible endpoint for manifests: structured output, JSON-mode fallback, a circuit breaker. The
 * openai SDK retries rate limits, server errors, timeouts and dropped connections (exponential backoff with jitter,
 * Retry-After honoured); this writer asks again after an unusable answer, telling the model why. Both draw on one
 * budget per skill: `settings.retries + 1` requests.
 */
export function createLlmManifestWriter(settings: LlmSettings): LlmManifestWriter {
  const client = new OpenAI({
    // The client insists on a key; local servers (Ollama, vLLM, LM Studio) ignore it.
    apiKey: settings.apiKey ?? "not-needed",
    baseURL: settings.baseURL,
    timeout: settings.timeoutMs,
    maxRetries: settings.retries,
  });
  const stats: LlmStats = { requests: 0, retries: 0, promptTokens: 0, completionTokens: 0, responseFormat: "json_schema", disabled: undefined };
  let failuresInARow = 0;

  async function write(messages: ChatMessage[]): Promise<ManifestAnswer> {
    // Requests sent for this skill, the SDK's retries included: counted where they leave, so the budget holds across both.
    let sent = 0;
    const counted = client.withOptions({
      fetch: (url, init) => {
        sent++;
        stats.requests++;
        return fetchWithBoundedRetryAfter(url, init);
      },
    });
    // Requests a server turned down for their response format spend no attempt: the budget grows by them.
    let free = 0;
    let conversation = messages;
    let problem = "no attempt made";
    let transportFailure = false;
    const settle = (answer: ManifestAnswer): ManifestAnswer => {
      stats.retries += Math.max(0, sent - free - 1);
      return answer;
    };
    for (;;) {
      if (stats.disabled) return settle({ ok: false, problem: `LLM given up for this run: ${stats.disabled}` });
      if (sent - free > settings.retries) break;
      const format = stats.responseFormat;
      const before = sent;
      try {
        const completion = await counted.chat.completions.create(manifestRequestBody(settings.model, conversation, format), { maxRetries: settings.retries - (sent - free) });
        stats.promptTokens += completion.usage?.prompt_tokens ?? 0;
        stats.completionTokens += completion.usage?.completion_tokens ?? 0;
        transportFailure = false;
        const answer = readCompletion(completion);
        if (answer.ok) {
          failuresInARow = 0;
          return settle(answer);
        }
        problem = answer.problem;
        // Say what was wrong: a model told why its answer failed usually gets it right the second time.
        conversation = [...messages, { role: "user", content: `Your previous answer was unusable (${problem}). Reply with only the JSON object: all six fields, the sizes asked for.` }];
      } catch (error) {
        const failure = classify(error, settings);
        problem = failure.reason;
        transportFailure = failure.kind === "retry";
        if (failure.kind === "fatal") stats.disabled = failure.reason;
        if (failure.kind === "skip" || failure.kind === "retry") break;
        if (failure.kind === "format") {
          if (format === "json_object") {
            stats.disabled = `the server rejects both structured output and JSON mode (${failure.reason})`;
            break;
          }
          // Not the server failing: ask again at once in JSON mode, without spending an attempt.
          stats.responseFormat = "json_object";
          free += sent - before;
        }
      }
    }
    if (transportFailure && ++failuresInARow >= GIVE_UP_AFTER && !stats.disabled) stats.disabled = `${GIVE_UP_AFTER} skills in a row failed: ${problem}`;
    return settle({ ok: false, problem });
  }

  return { model: settings.model, stats, write };
}

/** fetch, with a Retry-After over MAX_RETRY_AFTER_MS cut to it: the SDK obeys the header, and a run must not hang on it. */
async function fetchWithBoundedRetryAfter(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(url, init);
  if (retryAfter(response.headers) <= MAX_RETRY_AFTER_MS) return response;
  const headers = new Headers(response.headers);
  headers.delete("retry-after");
  headers.set("retry-after-ms", String(MAX_RETRY_AFTER_MS));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function classify(error: unknown, settings: LlmSettings): Failure {
  const where = settings.baseURL ?? "the OpenAI API";
  if (error instanceof APIConnectionTimeoutError) return { kind: "retry", reason: `no answer within ${settings.timeoutMs} ms` };
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? error.cause.message : error.message;
    return { kind: "retry", reason: `cannot reach ${where}: ${cause}` };
  }
  if (!(error instanceof APIError) || error.status === undefined) return { kind: "skip", reason: error instanceof Error ? error.message : String(error) };
  const status = error.status;
  const message = error.message.slice(0, 300);
  if (status === 429 || status === 408 || status === 409 || status >= 500) return { kind: "retry", reason: `HTTP ${message}` };
  if ((status === 400 || status === 422) && FORMAT_REJECTION.test(message)) return { kind: "format", reason: `HTTP ${message}` };
  if (status === 401 || status === 403) return { kind: "fatal", reason: `${where} refused the credentials (HTTP ${message}); check OPENAI_API_KEY` };
  if (status === 404) return { kind: "fatal", reason: `${where} has no model "${settings.model}" or no chat-completions endpoint (HTTP ${message})` };
  return { kind: "skip", reason: `HTTP ${message}` };
}

/** Milliseconds a server asked us to wait (`retry-after-ms`, or `retry-after` in seconds or as a date), as the SDK reads them. */
function retryAfter(headers: Headers): number {
  const milliseconds = Number(headers.get("retry-after-ms"));
  if (Number.isFinite(milliseconds) && milliseconds > 0) return milliseconds;
  const value = headers.get("retry-after");
  if (!value) return 0;
  const seconds = Number(value);
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(wait) && wait > 0 ? wait : 0;
}
