import type { IncomingMessage } from "node:http";
import type { Context } from "hono";

/** The client closed the connection before its request body arrived in full (Node's request, when served by Node). */
export function clientClosedRequest(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming !== undefined && !incoming.complete && (incoming.destroyed || incoming.errored !== null);
}
