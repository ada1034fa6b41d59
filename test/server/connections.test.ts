import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { CLI } from "../helpers/cli.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { runProcess } from "../integrations/run-process.js";
import { onOneConnection, oneSocketAgent, rawRequest, requestBytes, type RawRequest } from "./raw-http.js";
import { capturedLogs } from "./support.js";

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
        const second = await rawRequest(server.url, agent, good);
        // node:http itself drops a socket whose answer came before its body was sent; the server must not.
        expect(second).toMatchObject({ kind: "answer", status: 200 });
      }
    } finally {
      agent.destroy();
    }
  });

  it.each([false, true])("answers 413 and then the next request on the same connection, chunked: %s", async (chunked) => {
    const body = json({ query: "hi", context: ["z".repeat(4 * 1024 * 1024)] });
    const transcript = await onOneConnection(server.url, [requestBytes("POST", "/route", { "content-type": "application/json" }, body, chunked), requestBytes("POST", "/route", { "content-type": "application/json" }, good.body!)]);
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
