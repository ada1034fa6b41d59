import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { capturedLogs, postRoute, serveApp, slowEncoder } from "./support.js";

const API_KEY = "test-key-0123456789abcdef";
const dir = mkdtempSync(path.join(tmpdir(), "security-"));
const logs = capturedLogs();
let db: string;
let server: RunningServer;

beforeAll(async () => {
  ({ db } = await indexSkillSet(dir));
  server = await startServer({ db, host: "127.0.0.1", port: 0, apiKey: API_KEY, maxBodyBytes: 4096, corsOrigins: ["https://app.example.com"], logger: logs.logger });
  await server.ready;
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe("API key", () => {
  it("lets liveness through without a key, and nothing else", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    for (const endpoint of ["/readyz", "/skills", "/skills/k8s-debug", "/metrics", "/openapi.json", "/docs", "/nowhere"]) {
      const response = await fetch(`${server.url}${endpoint}`);
      expect([endpoint, response.status, ((await response.json()) as any).error.code]).toEqual([endpoint, 401, "API_KEY_MISSING"]);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
    const route = await postRoute(server.url, { query: "my pod keeps restarting" });
    expect([route.status, route.json.error.code]).toEqual([401, "API_KEY_MISSING"]);
  });

  it("refuses a wrong key, a key of another scheme and an empty bearer, and accepts the right one in any case of 'Bearer'", async () => {
    for (const authorization of [`Bearer ${API_KEY}x`, `Bearer ${API_KEY.slice(0, -1)}`, "Bearer wrong"]) {
      const reply = await postRoute(server.url, { query: "hi" }, { authorization });
      expect([reply.status, reply.json.error.code]).toEqual([401, "API_KEY_INVALID"]);
    }
    for (const authorization of [`Basic ${API_KEY}`, "Bearer", "Bearer   ", API_KEY]) {
      const reply = await postRoute(server.url, { query: "hi" }, { authorization });
      expect([reply.status, reply.json.error.code]).toEqual([401, "API_KEY_MISSING"]);
    }
    for (const authorization of [`Bearer ${API_KEY}`, `bearer ${API_KEY}`, `BEARER  ${API_KEY} `]) {
      expect((await postRoute(server.url, { query: "my pod keeps restarting" }, { authorization })).status).toBe(200);
    }
  });

  it("can leave /metrics open for a scraper while everything else still needs the key", async () => {
    const open = await serveApp({}, { apiKey: API_KEY, metricsPublic: true });
    try {
      expect((await fetch(`${open.url}/metrics`)).status).toBe(200);
      expect((await fetch(`${open.url}/skills`)).status).toBe(401);
    } finally {
      await open.close();
    }
  });

  it("never writes the key, right or wrong, to the logs", async () => {
    await postRoute(server.url, { query: "my pod keeps restarting" }, bearer(API_KEY));
    await postRoute(server.url, { query: "hi" }, bearer("a-wrong-key-that-must-not-be-logged"));
    await fetch(`${server.url}/metrics`, { headers: bearer(API_KEY) });
    const text = logs.text();
    expect(text).toMatch(/"event":"route"/);
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain("a-wrong-key-that-must-not-be-logged");
  });
});

describe("limits", () => {
  it("refuses a body over the limit, by Content-Length and while streaming a chunked body", async () => {
    const big = { query: "x".repeat(5000) };
    const declared = await postRoute(server.url, big, bearer(API_KEY));
    expect([declared.status, declared.json.error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);

    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${server.url}/route`);
      const sent = request(
        { host: url.hostname, port: url.port, path: "/route", method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked", ...bearer(API_KEY) } },
        (response) => {
          let body = "";
          response.on("data", (chunk: Buffer) => (body += chunk.toString()));
          response.on("end", () => resolve({ status: response.statusCode!, body }));
        },
      );
      sent.on("error", reject);
      sent.write('{"query":"');
      for (let i = 0; i < 10; i++) sent.write("y".repeat(1000));
      sent.end('"}');
    });
    expect([chunked.status, JSON.parse(chunked.body).error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
  });

  it("answers a request that outlives the timeout with 503 REQUEST_TIMEOUT instead of hanging", async () => {
    const hanging = await serveApp({ route: () => new Promise(() => undefined) }, { requestTimeoutMs: 150 });
    try {
      // The route never settles: any answer at all came from the request timeout.
      const reply = await postRoute(hanging.url, { query: "anything" });
      expect([reply.status, reply.json.error.code]).toEqual([503, "REQUEST_TIMEOUT"]);
    } finally {
      await hanging.close();
    }
  });

  it("stops the routing work it answered 503 REQUEST_TIMEOUT for: nothing after the embedding runs, no decision is recorded", async () => {
    const encoder = slowEncoder(500);
    const timedLogs = capturedLogs();
    const timed = await startServer({ db, host: "127.0.0.1", port: 0, requestTimeoutMs: 150, reloadIntervalMs: 0, logger: timedLogs.logger, router: { queryEncoder: encoder } });
    try {
      await timed.ready;
      const reply = await postRoute(timed.url, { query: "my pod keeps restarting" });
      expect([reply.status, reply.json.error.code]).toEqual([503, "REQUEST_TIMEOUT"]);
      // The embedding under way ends after the answer; a route that raced the deadline would go on to decide.
      while (encoder.finished < 1) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const metrics = await (await fetch(`${timed.url}/metrics`)).text();
      expect(metrics).not.toMatch(/^router_route_(decisions|abstentions)_total\{/m);
      expect(timedLogs.lines().filter((line) => line.event === "route" || line.msg === "unexpected error")).toEqual([]);
    } finally {
      await timed.close();
    }
  });

  it("binds to loopback unless told otherwise", async () => {
    expect(new URL(server.url).hostname).toBe("127.0.0.1");
  });
});

describe("headers on every answer", () => {
  it("marks answers nosniff and tags them with a request id, whoever made them: handlers, errors, the docs page, CORS preflights", async () => {
    const key = bearer(API_KEY);
    const answers = [
      await fetch(`${server.url}/route`, { method: "POST", headers: { ...key, "content-type": "application/json" }, body: JSON.stringify({ query: "my pod keeps restarting" }) }),
      await fetch(`${server.url}/route`, { method: "POST", headers: { ...key, "content-type": "application/json" }, body: "x".repeat(5000) }),
      await fetch(`${server.url}/skills`),
      await fetch(`${server.url}/nowhere`, { headers: key }),
      await fetch(`${server.url}/docs`, { headers: key }),
      await fetch(`${server.url}/metrics`, { headers: key }),
      await fetch(`${server.url}/route`, { method: "OPTIONS", headers: { origin: "https://app.example.com", "access-control-request-method": "POST" } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 413, 401, 404, 200, 200, 204]);
    for (const answer of answers) {
      expect(answer.headers.get("x-content-type-options"), answer.url).toBe("nosniff");
      expect(answer.headers.get("x-request-id"), answer.url).toMatch(/^[\w-]{36}$/);
      await answer.arrayBuffer();
    }
  });
});

describe("CORS", () => {
  it("answers a preflight from a listed origin and says nothing to others", async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/route`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" } });
    const allowed = await preflight("https://app.example.com");
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(allowed.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    const other = await preflight("https://evil.example.net");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    // And refused outright: a foreign Origin is not answered, key or none (test/server/host-check.test.ts).
    expect([other.status, ((await other.json()) as any).error.code]).toEqual([403, "ORIGIN_NOT_ALLOWED"]);
  });

  it("is off unless origins are configured", async () => {
    const plain = await serveApp({});
    try {
      const response = await fetch(`${plain.url}/healthz`, { headers: { origin: "https://app.example.com" } });
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
      const preflight = await fetch(`${plain.url}/route`, { method: "OPTIONS", headers: { origin: "https://app.example.com", "access-control-request-method": "POST" } });
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
      // No origin is listed, so another origin's browser requests are refused (host-check.ts).
      expect(preflight.status).toBe(403);
    } finally {
      await plain.close();
    }
  });
});
