import { ApiError } from "./api.js";
import { byId } from "./dom.js";
import { keyField } from "./key-field.js";

export function explain(error: unknown): string {
  if (error instanceof ApiError && error.code === "API_KEY_INVALID") return `The router refused this API key (${error.code}): check the API key field above.`;
  if (error instanceof ApiError && error.status === 401) return `This router needs its API key: paste it in the API key field above (${error.code}).`;
  if (error instanceof ApiError) return `${error.message} (${error.code})`;
  return `The router did not answer: ${error instanceof Error ? error.message : String(error)}`;
}

/** Shows what went wrong in the alert box with this id, or hides it when `error` is null. */
export function showError(id: string, error: unknown): void {
  const box = byId(id, HTMLElement);
  box.textContent = error ? explain(error) : "";
  box.hidden = !error;
  if (error instanceof ApiError && error.status === 401) keyField.focus();
}
