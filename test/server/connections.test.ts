import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteOptions } from "../../src/contract/route.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { CLI } from "../helpers/cli.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { runProcess } from "../integrations/run-process.js";
import { onOneConnection, oneSocketAgent, rawRequest, requestBytes, type RawRequest } from "./raw-http.js";
import { capturedLogs, serveApp } from "./support.js";

const MAX_BODY = 16 * 1024;
const dir = mkdtempSync(path.join(tmpdir(), "connections-"));
const logs = capturedLogs();
let db: string;
let server: RunningServer;

beforeAll(async () => {
  db = (await indexSkillSet(dir)).db;
  server = await startServer({ db, host: "127.0.0.1", port: 0, maxBodyBytes: MAX_BODY, reloadIntervalMs: 0, logger: logs.logger });
  await server.ready;
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const good: RawRequest = { method: "POST", path: "/route", headers: { "content-type": "application/json" }, body: json({ query: "my pod keeps restarting" }) };
const oversized = (chunked: boolean, bytes: number): RawRequest => ({ ...good, chunked, body: json({ query: "hi", context: ["z".repeat(bytes)] }) });

describe("connections after an error answer", () => {
  it.each([
    ["a 413 by Content-Length", oversized(false, 4 * 1024 * 1024), 413],
    ["a 413 while reading a chunked body", oversized(true, 4 * 1024 * 1024), 413],
    ["a 415 before reading the body", { ...good, headers: { "content-type": "text/plain" }, body: Buffer.alloc(MAX_BODY, 0x61) }, 415],
    ["a 404 for a POST with a body", { ...good, path: "/nowhere", body: Buffer.alloc(MAX_BODY, 0x61) }, 404],
  ])("keep the connection usable after %s: the next request on it is answered", async (_label, bad, status) => {
    const agent = oneSocketAgent();
    try {
      for (let round = 0; round < 3; round++) {
        const first = await rawRequest(server.url, agent, bad as RawRequest);
        expect(first).toMatchObject({ kind: "answer", status });
        expect(first.kind === "answer" && first.headers.connection).toBe("keep-alive");
        const second = await rawRequest(server.url, agent, good);
        // The same socket: the server read the rest of the body, so the answer came after it was sent.
        expect(second).toMatchObject({ kind: "answer", status: 200, reusedSocket: true });
      }
    } finally {
      agent.destroy();
    }
  });

  it.each([false, true])("routes a body within the limit, chunked: %s (the limit counts a chunked body as it reads it)", async (chunked) => {
    const agent = oneSocketAgent();
    try {
      const reply = await rawRequest(server.url, agent, { ...good, chunked });
      expect(reply).toMatchObject({ kind: "answer", status: 200 });
      expect(reply.kind === "answer" && JSON.parse(reply.body).skills.length).toBeGreaterThan(0);
    } finally {
      agent.destroy();
    }
  });

  it.each([false, true])("answers 413 and then the next request on the same connection, chunked: %s", async (chunked) => {
    const body = json({ query: "hi", context: ["z".repeat(4 * 1024 * 1024)] });
    const transcript = await onOneConnection(server.url, [
      requestBytes("POST", "/route", { "content-type": "application/json" }, body, chunked),
      requestBytes("POST", "/route", { "content-type": "application/json" }, good.body!),
    ]);
    expect(transcript).toEqual({ statuses: [413, 200], error: undefined });
  });

  it("counts and logs a client that abandons its body mid-way as 499 CLIENT_CLOSED_REQUEST, not a 500", async () => {
    const before = await requestCounts();
    const agent = oneSocketAgent();
    try {
      for (const chunked of [true, false]) {
        expect(await rawRequest(server.url, agent, { ...oversized(chunked, 8000), abortAfter: 3000 })).toEqual({ kind: "aborted" });
      }
    } finally {
      agent.destroy();
    }
    await expect.poll(async () => ((await requestCounts())["499"] ?? 0) - (before["499"] ?? 0)).toBe(2);
    expect((await requestCounts())["500"] ?? 0).toBe(before["500"] ?? 0);
    expect(logs.lines().filter((line) => line.level === "error")).toEqual([]);
    expect(logs.lines().filter((line) => line.event === "request" && line.status === 499)).toHaveLength(2);
  });
});

describe("every error status", () => {
  const API_KEY = "connections-key-0123456789";
  const auth = { authorization: `Bearer ${API_KEY}` };
  const filler = Buffer.alloc(MAX_BODY, 0x61);
  // A router that answers nothing until its deadline fires, and knows no skill.
  const stalled = {
    route: (_query: string, options?: RouteOptions) => new Promise<never>((_, reject) => options?.signal?.addEventListener("abort", () => reject(options.signal!.reason))),
    skill: () => undefined,
  };
  const post = (body: Buffer, headers: Record<string, string> = {}, chunked = false): RawRequest => ({
    method: "POST",
    path: "/route",
    headers: { "content-type": "application/json", ...auth, ...headers },
    body,
    chunked,
  });

  it.each([
    ["400 MALFORMED_JSON", post(Buffer.from('{"query":')), 400, "MALFORMED_JSON"],
    ["400 QUERY_EMPTY", post(json({ query: "" })), 400, "QUERY_EMPTY"],
    ["400 INVALID_REQUEST", post(json({ query: "hi", k: "3", context: ["z".repeat(MAX_BODY / 2)] })), 400, "INVALID_REQUEST"],
    ["401 API_KEY_MISSING", { ...post(filler), headers: { "content-type": "application/json" } }, 401, "API_KEY_MISSING"],
    ["401 API_KEY_INVALID", post(filler, { authorization: "Bearer wrong" }), 401, "API_KEY_INVALID"],
    ["404 ROUTE_NOT_FOUND", { ...post(filler), path: "/nowhere" }, 404, "ROUTE_NOT_FOUND"],
    ["404 SKILL_NOT_FOUND", { method: "GET", path: "/skills/ghost", headers: auth }, 404, "SKILL_NOT_FOUND"],
    ["413 PAYLOAD_TOO_LARGE", post(Buffer.alloc(4 * 1024 * 1024, 0x61)), 413, "PAYLOAD_TOO_LARGE"],
    ["413 PAYLOAD_TOO_LARGE, chunked", post(Buffer.alloc(4 * 1024 * 1024, 0x61), {}, true), 413, "PAYLOAD_TOO_LARGE"],
    ["415 UNSUPPORTED_MEDIA_TYPE", post(filler, { "content-type": "text/plain" }), 415, "UNSUPPORTED_MEDIA_TYPE"],
    ["503 REQUEST_TIMEOUT", post(json({ query: "anything" })), 503, "REQUEST_TIMEOUT"],
    ["503 NOT_READY", post(json({ query: "anything" })), 503, "NOT_READY"],
  ] as const)("%s keeps the connection: the next request reuses its socket", async (label, bad, status, code) => {
    const app = await serveApp(stalled, { apiKey: API_KEY, maxBodyBytes: MAX_BODY, requestTimeoutMs: 200 });
    if (label === "503 NOT_READY") app.slot.router = undefined;
    const agent = oneSocketAgent();
    try {
      const first = await rawRequest(app.url, agent, bad);
      expect(first).toMatchObject({ kind: "answer", status, headers: { connection: "keep-alive" } });
      expect(first.kind === "answer" && JSON.parse(first.body).error.code).toBe(code);
      expect(await rawRequest(app.url, agent, { method: "GET", path: "/healthz", headers: {} })).toMatchObject({ kind: "answer", status: 200, reusedSocket: true });
    } finally {
      agent.destroy();
      await app.close();
    }
  });
});

describe("a busy port", () => {
  it("startServer rejects with PORT_IN_USE", async () => {
    const port = Number(new URL(server.url).port);
    await expect(startServer({ db, host: "127.0.0.1", port })).rejects.toMatchObject({ code: "PORT_IN_USE", details: { port } });
  });

  it("router serve prints error [PORT_IN_USE] and exits 1, without a stack trace", async () => {
    const blocker = createServer().listen(0, "127.0.0.1");
    await once(blocker, "listening");
    try {
      const port = (blocker.address() as AddressInfo).port;
      const result = await runProcess(process.execPath, [CLI, "serve", "--db", db, "--host", "127.0.0.1", "--port", String(port)], "");
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^error \\[PORT_IN_USE\\]: Another process is listening on 127\\.0\\.0\\.1:${port}`));
      expect(result.stderr).not.toMatch(/\n\s+at /);
    } finally {
      blocker.close();
    }
  });
});

/** router_http_requests_total for POST /route, summed by status. */
async function requestCounts(): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^router_http_requests_total\{([^}]*)\} (\d+)/gm)) {
    const status = /status="(\d+)"/.exec(match[1]!)![1]!;
    counts[status] = (counts[status] ?? 0) + Number(match[2]);
  }
  return counts;
}
