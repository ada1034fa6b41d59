import type { IncomingMessage } from "node:http";
import type { Context } from "hono";

/** The client closed the connection before its request body arrived in full (Node's request, when served by Node). */
export function clientClosedRequest(c: Context): boolean {
  const incoming = nodeRequest(c);
  return incoming !== undefined && !incoming.complete && (incoming.destroyed || incoming.errored !== null);
}

/** The client is still connected and its request body has not arrived in full: a slow or stalled sender. */
export function bodyStillArriving(c: Context): boolean {
  const incoming = nodeRequest(c);
  return incoming !== undefined && !incoming.complete && !incoming.destroyed && incoming.errored === null;
}

function nodeRequest(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}
