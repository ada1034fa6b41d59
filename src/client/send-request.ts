import { RouterClientError, type ClientErrorCode } from "./client-error.js";

export interface Transport {
  baseUrl: string;
  apiKey: string | undefined;
  /** Budget of one call, retries and waits included (ms). */
  timeoutMs: number;
  /** Extra attempts after a failure that may pass on its own. */
  retries: number;
  fetch: typeof fetch;
}

export interface RequestSpec {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

const FIRST_BACKOFF_MS = 100;
// Statuses that say "not now" rather than "not this request": loading (503), overloaded (429), a proxy's 502/504.
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/**
 * One JSON request under a hard deadline. Every endpoint but POST /feedback only reads, and feedback sent twice is
 * stored once (the second counts as a duplicate), so a retry never repeats a side effect; it still happens only after
 * a refused connection or a retryable status, never after the deadline.
 */
export async function sendRequest<T>(transport: Transport, spec: RequestSpec): Promise<T> {
  const timeoutMs = spec.timeoutMs ?? transport.timeoutMs;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = spec.signal ? AbortSignal.any([deadline, spec.signal]) : deadline;
  const started = Date.now();
  const headers: Record<string, string> = { accept: "application/json", ...spec.headers };
  if (spec.body !== undefined) headers["content-type"] = "application/json";
  if (transport.apiKey) headers.authorization = `Bearer ${transport.apiKey}`;
  const init: RequestInit = { method: spec.method, headers, signal, ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}) };

  for (let attempt = 0; ; attempt++) {
    let failure: RouterClientError;
    let waitMs = FIRST_BACKOFF_MS * 2 ** attempt;
    try {
      const response = await transport.fetch(`${transport.baseUrl}${spec.path}`, init);
      const payload = await readJson(response);
      if (response.ok) return payload as T;
      failure = httpFailure(response.status, payload);
      if (!RETRYABLE_STATUSES.has(response.status)) throw failure;
      waitMs = retryAfter(response.headers.get("retry-after")) ?? waitMs;
    } catch (error) {
      if (error instanceof RouterClientError) throw error;
      if (signal.aborted) throw abortFailure(deadline.aborted, timeoutMs, transport.baseUrl, error);
      failure = clientFailure("ROUTER_UNREACHABLE", `Cannot reach the router at ${transport.baseUrl}: ${describe(error)}`, error);
    }
    if (attempt >= transport.retries || Date.now() - started + waitMs >= timeoutMs) throw failure;
    await sleep(waitMs, signal).catch((error: unknown) => {
      throw abortFailure(deadline.aborted, timeoutMs, transport.baseUrl, error);
    });
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RouterClientError({ code: "BAD_RESPONSE", message: `The router answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`, status: response.status });
  }
}

/** The router's `{error: {code, message, details}}`, or a generic failure when some proxy answered instead. */
function httpFailure(status: number, payload: unknown): RouterClientError {
  const error = (payload as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  if (error && typeof error.code === "string" && typeof error.message === "string") {
    return new RouterClientError({ code: error.code, message: error.message, status, ...(isRecord(error.details) ? { details: error.details } : {}) });
  }
  return new RouterClientError({ code: `HTTP_${status}`, message: `The router answered ${status}`, status });
}

function abortFailure(timedOut: boolean, timeoutMs: number, baseUrl: string, cause: unknown): RouterClientError {
  return timedOut ? clientFailure("ROUTER_TIMEOUT", `No answer from the router at ${baseUrl} within ${timeoutMs} ms`, cause) : clientFailure("ABORTED", "The caller aborted the request", cause);
}

function clientFailure(code: ClientErrorCode, message: string, cause: unknown): RouterClientError {
  return new RouterClientError({ code, message, cause });
}

function retryAfter(header: string | null): number | undefined {
  const seconds = header === null ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** fetch hides the cause of a network failure one level down (`ECONNREFUSED`, ...). */
function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
