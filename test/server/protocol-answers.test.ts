import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { onOneConnection, type RawExchange, requestBytes, sendAndWait } from "./raw-http.js";
import { capturedLogs } from "./support.js";

// Short, so a stalled client is answered soon; nothing here measures time.
const REQUEST_TIMEOUT_MS = 300;
const dir = mkdtempSync(path.join(tmpdir(), "protocol-answers-"));
const logs = capturedLogs();
let server: RunningServer;

beforeAll(async () => {
  const { db } = await indexSkillSet(dir);
  server = await startServer({ db, host: "127.0.0.1", port: 0, requestTimeoutMs: REQUEST_TIMEOUT_MS, reloadIntervalMs: 0, logger: logs.logger, explorer: true });
  await server.ready;
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const errorCode = (exchange: RawExchange): string | undefined => (JSON.parse(exchange.body) as { error?: { code: string } }).error?.code;

/** Every status the server counted, as `method route status`. */
async function counted(): Promise<string[]> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return [...text.matchAll(/^router_http_requests_total\{([^}]*)\} \d+/gm)].map((match) => {
    const label = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(match[1]!)![1];
    return `${label("method")} ${label("route")} ${label("status")}`;
  });
}

describe("answers a client gets where Node would send a bare status line or close the socket", () => {
  it("a body that stalls: JSON 408 CLIENT_TIMEOUT, the connection closed, logged and counted as a client's fault", async () => {
    const head = 'POST /route HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"query":';
    const exchange = await sendAndWait(server.url, Buffer.from(head));
    expect(exchange).toMatchObject({ status: 408, headers: { connection: "close", "content-type": "application/json" } });
    expect(errorCode(exchange)).toBe("CLIENT_TIMEOUT");
    expect(await counted()).toContain("POST /route 408");
    expect((await counted()).filter((line) => line.endsWith(" 503"))).toEqual([]);
    expect(logs.lines().filter((line) => line.level === "error")).toEqual([]);
  });

  it("headers that stall: JSON 408 CLIENT_TIMEOUT", async () => {
    const exchange = await sendAndWait(server.url, Buffer.from("POST /route HTTP/1.1\r\nhost: localhost\r\ncontent-type: appl"));
    expect(exchange.status).toBe(408);
    expect(errorCode(exchange)).toBe("CLIENT_TIMEOUT");
  });

  it("CONNECT: answered 404 ROUTE_NOT_FOUND, as any endpoint this server lacks, and counted", async () => {
    const exchange = await sendAndWait(server.url, Buffer.from("CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n"));
    expect(exchange.status).toBe(404);
    expect(errorCode(exchange)).toBe("ROUTE_NOT_FOUND");
    expect(await counted()).toContain("CONNECT unmatched 404");
  });

  it("100 KB of headers on 16 connections at once: sixteen 431 HEADERS_TOO_LARGE answers, no reset", async () => {
    const huge = requestBytes("GET", "/healthz", { "x-filler": "a".repeat(100 * 1024) }, Buffer.alloc(0));
    const exchanges = await Promise.all(Array.from({ length: 16 }, () => sendAndWait(server.url, huge)));
    expect(exchanges.map((exchange) => [exchange.status, exchange.error, errorCode(exchange)])).toEqual(Array.from({ length: 16 }, () => [431, undefined, "HEADERS_TOO_LARGE"]));
    expect(await counted()).toContain("unknown unmatched 431");
  });

  it("malformed HTTP: JSON 400 MALFORMED_HTTP", async () => {
    const exchange = await sendAndWait(server.url, Buffer.from("GET /healthz HTTP/1.1\r\nhost localhost\r\n\r\n"));
    expect(exchange.status).toBe(400);
    expect(errorCode(exchange)).toBe("MALFORMED_HTTP");
  });

  it("a path with backslashes, which the HTTP adapter cannot make a URL of: JSON 400 MALFORMED_HTTP, logged with its method and counted", async () => {
    const exchange = await sendAndWait(server.url, Buffer.from("GET /route\\..\\x HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n"));
    expect(exchange).toMatchObject({ status: 400, error: undefined, headers: { "content-type": "application/json", "x-content-type-options": "nosniff" } });
    expect(JSON.parse(exchange.body).error).toEqual({ code: "MALFORMED_HTTP", message: "The request target is not valid: Backslash in request path" });
    expect(logs.lines()).toContainEqual(expect.objectContaining({ event: "request", method: "GET", route: "unmatched", status: 400, code: "MALFORMED_HTTP", level: "info" }));
    expect(await counted()).toContain("GET unmatched 400");
    // With a body, sent on a kept-alive connection: the body is read and dropped, and the next request is answered.
    const body = Buffer.from(JSON.stringify({ query: "my pod keeps restarting" }));
    const next = requestBytes("GET", "/healthz", { connection: "close" }, Buffer.alloc(0));
    const transcript = await onOneConnection(server.url, [requestBytes("POST", "/route\\x", { "content-type": "application/json" }, body), next]);
    expect(transcript).toEqual({ statuses: [400, 200], error: undefined });
  });
});

describe("bodies the JSON validator would misread", () => {
  const post = (route: string, body: Buffer, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${route}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

  it.each(["/route", "/eval"])("%s refuses invalid UTF-8 with 400 BODY_NOT_UTF8, where the validator would route replacement characters", async (route) => {
    const body = Buffer.concat([Buffer.from('{"query":"my pod keeps restarting '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
    const response = await post(route, body);
    expect([response.status, ((await response.json()) as { error: { code: string } }).error.code]).toEqual([400, "BODY_NOT_UTF8"]);
  });

  it("accepts UTF-8 beyond ASCII", async () => {
    const response = await post("/route", Buffer.from(JSON.stringify({ query: "mon pod redémarre sans cesse 🚑" })));
    expect(response.status).toBe(200);
  });

  it("refuses Transfer-Encoding: gzip, chunked with 415 rather than reading gzip as text", async () => {
    const body = gzipSync(JSON.stringify({ query: "my pod keeps restarting" }));
    const bytes = requestBytes("POST", "/route", { "content-type": "application/json", connection: "close" }, body, true);
    const exchange = await sendAndWait(server.url, Buffer.from(bytes.toString("latin1").replace("transfer-encoding: chunked", "transfer-encoding: gzip, chunked"), "latin1"));
    expect(exchange.status).toBe(415);
    expect(errorCode(exchange)).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(JSON.parse(exchange.body).error.message).toMatch(/transfer encoding gzip, chunked/);
  });
});
