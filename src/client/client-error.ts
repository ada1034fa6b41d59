import type { RouterFailure } from "./types.js";

/** Failures the client itself names; every other code comes from the router's error catalogue (src/errors.ts). */
export type ClientErrorCode = "ROUTER_UNREACHABLE" | "ROUTER_TIMEOUT" | "ABORTED" | "BAD_RESPONSE";

/** Why a client call got no usable answer; `code` is stable and safe to match on. */
export class RouterClientError extends Error implements RouterFailure {
  readonly code: string;
  readonly status: number | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(failure: RouterFailure & { details?: Record<string, unknown>; cause?: unknown }) {
    super(failure.message, failure.cause === undefined ? undefined : { cause: failure.cause });
    this.name = "RouterClientError";
    this.code = failure.code;
    this.status = failure.status;
    this.details = failure.details;
  }

  /** The router answered, but refused the request itself: repeating it unchanged cannot help. */
  get rejected(): boolean {
    return this.status !== undefined && this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }

  toJSON(): RouterFailure {
    return this.status === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, status: this.status };
  }
}
