import type { ErrorBody } from "../../../contract/skills.js";
import { apiKey } from "./key-field.js";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function headers(hasBody: boolean): Record<string, string> {
  const list: Record<string, string> = { accept: "application/json" };
  if (hasBody) list["content-type"] = "application/json";
  const key = apiKey();
  if (key) list.authorization = `Bearer ${key}`;
  return list;
}

/** The answer and its JSON (undefined when the body is not JSON), whatever the status; `headers` add to the page's own. */
export async function send(path: string, options: Omit<RequestInit, "headers"> & { headers?: Record<string, string> } = {}): Promise<{ response: Response; json: unknown }> {
  const response = await fetch(path, { ...options, headers: { ...headers(options.body !== undefined), ...options.headers } });
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    json = undefined;
  }
  return { response, json };
}

export function apiError(response: Response, json: unknown): ApiError {
  const problem = (json as Partial<ErrorBody> | undefined)?.error;
  return new ApiError(response.status, problem?.code || `HTTP_${response.status}`, problem?.message || `The server answered ${response.status} without a JSON error`);
}

// The JSON of a successful answer, as the endpoint's contract types it; any other answer becomes an ApiError with the server's code and message.
export async function call<Answer>(path: string, options: Parameters<typeof send>[1]): Promise<Answer> {
  const { response, json } = await send(path, options);
  if (response.ok && json !== undefined) return json as Answer;
  throw apiError(response, json);
}
