import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createError } from "../errors.js";
import { bodyStillArriving } from "./client-abort.js";
import type { RequestVariables } from "./observe-requests.js";

/** Refuses bodies over `maxBytes` (by Content-Length, or while reading a chunked body) with 413 PAYLOAD_TOO_LARGE. */
export function limitBody(maxBytes: number): MiddlewareHandler {
  const tooLarge = () => {
    throw createError("PAYLOAD_TOO_LARGE", `The request body is larger than ${maxBytes} bytes`, { maxBytes });
  };
  const counting = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async (c, next) => {
    // Hono's limit reads `raw.body` first, which makes @hono/node-server build a whole web Request and read the body
    // through its stream: about a tenth of the server's CPU on cached answers. A declared length needs neither.
    const length = c.req.header("content-length");
    if (length === undefined || c.req.header("transfer-encoding") !== undefined) return counting(c, next);
    if (Number.parseInt(length, 10) > maxBytes) tooLarge();
    await next();
  };
}

/**
 * Answers 503 REQUEST_TIMEOUT when the rest of the chain takes longer than `ms`, so the client never waits on a
 * hang, and fires the request's `deadline` signal so the routing work stops too instead of running on unseen. When
 * the body is still arriving then, the delay is the client's: 408 CLIENT_TIMEOUT, and the connection closes.
 */
export function limitTime(ms: number): MiddlewareHandler<{ Variables: RequestVariables }> {
  return async (c, next) => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new AbortController();
    c.set("deadline", deadline.signal);
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = bodyStillArriving(c)
          ? createError("CLIENT_TIMEOUT", `The request body did not arrive in full within ${ms} ms`, { timeoutMs: ms })
          : createError("REQUEST_TIMEOUT", `The request took longer than ${ms} ms`, { timeoutMs: ms });
        deadline.abort(error);
        reject(error);
      }, ms);
    });
    try {
      await Promise.race([next(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}
