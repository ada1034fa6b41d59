import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createError } from "../errors.js";

/** Refuses bodies over `maxBytes` (by Content-Length, or while reading a chunked body) with 413 PAYLOAD_TOO_LARGE. */
export function limitBody(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw createError("PAYLOAD_TOO_LARGE", `The request body is larger than ${maxBytes} bytes`, { maxBytes });
    },
  });
}

/** Answers 503 REQUEST_TIMEOUT when the rest of the chain takes longer than `ms`; the client never waits on a hang. */
export function limitTime(ms: number): MiddlewareHandler {
  return async (_c, next) => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(createError("REQUEST_TIMEOUT", `The request took longer than ${ms} ms`, { timeoutMs: ms })), ms);
    });
    try {
      await Promise.race([next(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}
