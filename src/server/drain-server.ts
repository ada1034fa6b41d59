import type { Server } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";

const POLL_MS = 20;

/**
 * Stops accepting connections and lets requests in flight finish for up to `graceMs`; then closes every
 * connection left (idle keep-alives, and requests that outlived the grace period). Returns how many were cut.
 */
export async function drainServer(server: Server, inFlight: { count: number }, graceMs: number): Promise<number> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const deadline = performance.now() + graceMs;
  while (inFlight.count > 0 && performance.now() < deadline) await sleep(POLL_MS);
  const cut = inFlight.count;
  server.closeAllConnections();
  await closed;
  return cut;
}
