import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp, type AppOptions, type RouterSlot } from "../../src/server/app.js";
import { listen } from "../../src/server/listen.js";
import { createLogger, type Logger } from "../../src/server/logger.js";
import type { QueryEncoder } from "../../src/models/query-encoder.js";
import type { Router } from "../../src/route/router.js";

export interface Reply {
  status: number;
  headers: Headers;
  json: any;
}

/** POSTs to /route (JSON unless `body` is already a string) and reads the answer. */
export async function postRoute(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const response = await fetch(`${url}/route`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text };
}

/** A logger whose JSON lines stay in memory, to read back what the server logged. */
export function capturedLogs(): { logger: Logger; lines: () => Record<string, any>[]; text: () => string } {
  const chunks: string[] = [];
  const logger = createLogger("trace", { write: (chunk: string) => chunks.push(chunk) });
  const text = () => chunks.join("");
  return {
    logger,
    text,
    lines: () =>
      text()
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, any>),
  };
}

/** The app over a stand-in router (a hanging or slow route, say), served on real HTTP. */
export async function serveApp(router: Partial<Router>, options: AppOptions = {}): Promise<{ url: string; slot: RouterSlot; server: Server; inFlight: { count: number }; close(): Promise<void> }> {
  const slot: RouterSlot = { router: router as Router, error: undefined, draining: false };
  const inFlight = { count: 0 };
  const app = createApp(slot, { inFlight, ...options });
  const server = await listen(app, { hostname: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, slot, server, inFlight, close: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => server.closeAllConnections()) };
}

export interface LoadTally {
  requests: number;
  /** Every answer that was not a 200, and every request that failed outright. */
  failures: string[];
  /** What each 200 said, in the order they arrived. */
  answers: any[];
}

/** Sends `concurrency` streams of POST /route, each pausing `pauseMs` between requests, until `running()` turns false. */
export async function routeUnderLoad(url: string, body: (n: number) => unknown, concurrency: number, running: () => boolean, pauseMs = 0): Promise<LoadTally> {
  const tally: LoadTally = { requests: 0, failures: [], answers: [] };
  const stream = async () => {
    while (running()) {
      const n = tally.requests++;
      try {
        const reply = await postRoute(url, body(n));
        if (reply.status === 200) tally.answers.push(reply.json);
        else tally.failures.push(`${reply.status} ${JSON.stringify(reply.json)}`);
      } catch (error) {
        tally.failures.push(`request failed: ${(error as Error).message}`);
      }
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, stream));
  return tally;
}

/** A query encoder that passes for the offline model but takes `delayMs` per query; `started` and `finished` count queries. */
export function slowEncoder(delayMs: number): QueryEncoder & { started: number; finished: number } {
  const vector = new Float32Array(512);
  vector[0] = 1;
  const encoder = {
    id: "use-lite-512",
    dimension: 512,
    started: 0,
    finished: 0,
    async embedQuery() {
      encoder.started++;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      encoder.finished++;
      return vector.slice();
    },
    embedMany: (texts: string[]) => Promise.all(texts.map(() => encoder.embedQuery())),
    close: async () => undefined,
  };
  return encoder;
}
