import { once } from "node:events";
import type { IncomingMessage } from "node:http";

// How long an answer waits for the rest of a body nobody read; a client still sending after that is cut off.
export const LINGER_MS = 2_000;

/**
 * Throws away whatever of the request body nobody read (an answer given before reading it: 413, 415, 404, ...)
 * and holds the answer until the client has finished sending, at most LINGER_MS. Then a kept-alive connection
 * carries the next request, and one that closes (`Connection: close`) closes cleanly: closing with bytes still
 * arriving makes the kernel reset the connection, and the client's write fails (EPIPE) or its answer is lost.
 */
export async function discardUnreadBody(incoming: IncomingMessage): Promise<void> {
  if (incoming.complete || incoming.destroyed) return;
  // The web-stream adapter's listener pauses the request whenever its unread queue is full; nobody reads it now.
  incoming.removeAllListeners("data");
  incoming.resume();
  const timeout = AbortSignal.timeout(LINGER_MS);
  await Promise.race([once(incoming, "end", { signal: timeout }), once(incoming, "close", { signal: timeout })]).catch(() => undefined);
}
