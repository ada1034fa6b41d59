import { createHash } from "node:crypto";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/**
 * Who the server knows a feedback sender as, for the store's caps: the API key that authenticated it (a digest, never
 * the key), else the address it connects from. Unlike X-Router-Client, neither is the sender's own word.
 */
export function feedbackSender(c: Context, apiKey: string | undefined): string {
  if (apiKey) return `key:${createHash("sha256").update(apiKey).digest("hex").slice(0, 16)}`;
  try {
    return `addr:${getConnInfo(c).remote.address ?? "unknown"}`;
  } catch {
    // In-process requests (app.request in tests, the explorer's own calls) have no socket.
    return "addr:in-process";
  }
}
