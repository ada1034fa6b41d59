import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Once the answer is sent, throws away whatever of the request body nobody read (an answer given before
 * reading it: 413, 415, 401, ...), so the client finishes sending and the kept-alive connection carries its next
 * request. Closing instead, with bytes still arriving, makes the kernel reset the connection, and the reset can
 * destroy the answer before the client reads it. A client that never stops sending is cut by Node's requestTimeout.
 */
export function discardUnreadBody(incoming: IncomingMessage, outgoing: ServerResponse): void {
  outgoing.once("finish", () => {
    if (incoming.complete || incoming.destroyed) return;
    // The web-stream adapter's listener pauses the request whenever its unread queue is full; nobody reads it now.
    incoming.removeAllListeners("data");
    incoming.resume();
  });
}
