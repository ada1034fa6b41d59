import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CATALOGUE } from "../../src/errors.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { printable, UNUSUAL_CONTENT_TYPES } from "../helpers/hostile-inputs.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { oneSocketAgent, rawRequest, type RawRequest } from "./raw-http.js";

const MAX_BODY = 16 * 1024;
const dir = mkdtempSync(path.join(tmpdir(), "hostile-http-"));
let server: RunningServer;

beforeAll(async () => {
  const { db } = await indexSkillSet(dir);
  server = await startServer({ db, host: "127.0.0.1", port: 0, maxBodyBytes: MAX_BODY, reloadIntervalMs: 0 });
  await server.ready;
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const GOOD: RawRequest = { method: "POST", path: "/route", headers: { "content-type": "application/json" }, body: Buffer.from('{"query":"my pod keeps restarting"}') };

const contentType = fc.oneof(
  fc.constantFrom("application/json", "application/json; charset=utf-8", ...UNUSUAL_CONTENT_TYPES, "application/x-www-form-urlencoded", "application/*+json"),
  printable(40),
  printable(20).map((tail) => `application/json${tail}`),
);
const body = fc.oneof(
  fc.constant(Buffer.alloc(0)),
  fc.jsonValue({ maxDepth: 3 }).map((value) => Buffer.from(JSON.stringify(value) ?? "null")),
  fc.string({ maxLength: 80 }).map((query) => Buffer.from(JSON.stringify({ query }))),
  fc.constantFrom("{", '{"query":', "nul", "{'query':'hi'}", '\uFEFF{"query":"hi"}').map((text) => Buffer.from(text)),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc.constant(Buffer.from('{"query":"my pod keeps restarting"}', "utf16le")),
  fc.constant(Buffer.from('{"query":"café"}', "latin1")),
  fc.integer({ min: MAX_BODY + 1, max: 8 * MAX_BODY }).map((size) => Buffer.from(JSON.stringify({ query: "hi", context: ["z".repeat(size)] }))),
);
const request: fc.Arbitrary<RawRequest> = fc.record({
  method: fc.constantFrom("POST", "POST", "POST", "GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"),
  path: fc.constantFrom("/route", "/route", "/route", "/route?x=1", "/skills", "/skills/k8s-debug", "/healthz", "/nope", "/%ZZ"),
  headers: fc.record(
    {
      "content-type": contentType,
      "content-encoding": fc.constantFrom("gzip", "identity", "br", ""),
      accept: printable(30),
      "x-request-id": printable(40),
      "x-anything": printable(60),
      connection: fc.constantFrom("keep-alive", "close"),
      expect: fc.constant("100-continue"),
    },
    { requiredKeys: [] },
  ),
  body,
  chunked: fc.boolean(),
});

/** A coded error answer from the catalogue, or a 2xx; never a 5xx. */
function expectHandled(method: string, status: number, text: string, label: string): void {
  expect(status, label).toBeLessThan(500);
  if (status < 400 || method === "HEAD") return;
  expect(Object.keys(ERROR_CATALOGUE), label).toContain(JSON.parse(text).error.code);
}

describe("hostile HTTP, on real sockets", () => {
  it("property: any method, path, headers, content type and body get a 2xx or a coded 4xx; the connection is kept and reused, or closed cleanly", async () => {
    await fc.assert(
      fc.asyncProperty(request, async (spec) => {
        const agent = oneSocketAgent();
        try {
          const label = JSON.stringify({ ...spec, body: spec.body?.subarray(0, 80).toString("latin1"), bytes: spec.body?.length });
          const first = await rawRequest(server.url, agent, spec);
          expect(first.kind, label).toBe("answer");
          if (first.kind === "answer") expectHandled(spec.method, first.status, first.body, label);
          const second = await rawRequest(server.url, agent, GOOD);
          expect(second, label).toMatchObject({ kind: "answer", status: 200 });
          // Kept alive means reused. (node:http's client never reuses a socket after a HEAD answer without a length.)
          if (first.kind === "answer" && spec.method !== "HEAD" && first.headers.connection !== "close") expect(second.kind === "answer" && second.reusedSocket, label).toBe(true);
        } finally {
          agent.destroy();
        }
      }),
      { numRuns: 200, seed: 23, interruptAfterTimeLimit: 25_000 },
    );
  });

  it("property: a client that gives up mid-body leaves the server answering, and is never a 5xx", async () => {
    const aborted = fc.record({ bytes: fc.integer({ min: 100, max: 4 * MAX_BODY }), chunked: fc.boolean(), sentShare: fc.double({ min: 0, max: 0.9, noNaN: true }) });
    await fc.assert(
      fc.asyncProperty(aborted, async ({ bytes, chunked, sentShare }) => {
        const agent = oneSocketAgent();
        try {
          const spec: RawRequest = { ...GOOD, chunked, body: Buffer.from(JSON.stringify({ query: "hi", context: ["z".repeat(bytes)] })), abortAfter: Math.floor(bytes * sentShare) };
          const reply = await rawRequest(server.url, agent, spec);
          // A declared length over the limit is refused before the client gets to give up.
          if (reply.kind === "answer") expect(reply.status).toBe(413);
          else expect(reply).toEqual({ kind: "aborted" });
          expect(await rawRequest(server.url, oneSocketAgent(), GOOD)).toMatchObject({ kind: "answer", status: 200 });
        } finally {
          agent.destroy();
        }
      }),
      { numRuns: 40, seed: 29, interruptAfterTimeLimit: 10_000 },
    );
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).not.toMatch(/^router_http_requests_total\{[^}]*status="5\d\d"/m);
  });
});
