import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CATALOGUE } from "../../src/errors.js";
import { routeResponseSchema } from "../../src/server/schemas.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { postRoute, type Reply } from "./support.js";

const API_KEY = "bad-input-key-0123456789";
const auth = { authorization: `Bearer ${API_KEY}` };
const dir = mkdtempSync(path.join(tmpdir(), "bad-input-"));
let server: RunningServer;

beforeAll(async () => {
  const { db } = await indexSkillSet(dir);
  server = await startServer({ db, host: "127.0.0.1", port: 0, apiKey: API_KEY, maxBodyBytes: 64 * 1024 });
  await server.ready;
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A 200 with a decision, or a 4xx whose code is in the catalogue: never a 5xx, never an unlabelled error. */
function expectHandled(reply: Reply, label: unknown): void {
  const context = JSON.stringify(label)?.slice(0, 200);
  expect(reply.status, context).toBeLessThan(500);
  if (reply.status === 200) {
    expect(["inject", "none"], context).toContain(reply.json.decision);
    return;
  }
  expect(reply.status, context).toBeGreaterThanOrEqual(400);
  expect(Object.keys(ERROR_CATALOGUE), context).toContain(reply.json.error.code);
  expect(reply.json.error.message, context).toEqual(expect.any(String));
}

describe("bad input to POST /route", () => {
  it.each([
    ["an empty body", ""],
    ["an unclosed object", "{"],
    ["a bare word", "nul"],
    ["single quotes", "{'query':'hi'}"],
    ["trailing garbage", '{"query":"hi"} and more'],
    ["a NUL byte", "\u0000"],
  ])("rejects %s as malformed JSON", async (_label, body) => {
    const reply = await postRoute(server.url, body, auth);
    expect([reply.status, reply.json.error.code]).toEqual([400, "MALFORMED_JSON"]);
  });

  const wrongShapes: [unknown, string][] = [
    [{ query: true }, "QUERY_NOT_STRING"],
    [{ query: null }, "QUERY_NOT_STRING"],
    [{ query: ["hi"] }, "QUERY_NOT_STRING"],
    [{ query: { text: "hi" } }, "QUERY_NOT_STRING"],
    [{ query: "" }, "QUERY_EMPTY"],
    [{ query: " \u00a0\u2003\n" }, "QUERY_EMPTY"],
    [{ query: "é".repeat(8001) }, "QUERY_TOO_LONG"],
    [{ query: "hi", k: "3" }, "INVALID_REQUEST"],
    [{ query: "hi", k: 2.5 }, "INVALID_REQUEST"],
    [{ query: "hi", threshold: "0.5" }, "INVALID_REQUEST"],
    [{ query: "hi", context: "earlier" }, "INVALID_REQUEST"],
    [{ query: "hi", context: [{ content: 5 }] }, "INVALID_REQUEST"],
    [{ query: "hi", context: Array.from({ length: 21 }, () => "x") }, "INVALID_REQUEST"],
    [{ query: "hi", skills: "k8s-debug" }, "INVALID_REQUEST"],
    [{ query: "hi", skills: [""] }, "INVALID_REQUEST"],
    [{ query: "hi", include: "body" }, "INVALID_REQUEST"],
    [{ query: "hi", multi: "yes" }, "INVALID_REQUEST"],
    ['{"query":"hi","__proto__":{"k":1}}', "INVALID_REQUEST"],
    [{ query: "hi", constructor: "x" }, "INVALID_REQUEST"],
    ["[]", "INVALID_REQUEST"],
    ["42", "INVALID_REQUEST"],
    ['"a string"', "INVALID_REQUEST"],
    ["null", "INVALID_REQUEST"],
  ];
  it.each(wrongShapes.map(([body, code]) => ({ label: (typeof body === "string" ? body : JSON.stringify(body)).slice(0, 60), body, code })))("rejects $label with $code", async ({ body, code }) => {
    const reply = await postRoute(server.url, typeof body === "string" ? body : JSON.stringify(body), auth);
    expect([reply.status, reply.json.error.code]).toEqual([400, code]);
  });

  it("reads past a UTF-8 byte-order mark", async () => {
    expect((await postRoute(server.url, '\uFEFF{"query":"my pod keeps restarting"}', auth)).status).toBe(200);
  });

  it("rejects deeply nested JSON without a crash", async () => {
    const depth = 20_000;
    const reply = await postRoute(server.url, `{"query":"hi","context":${"[".repeat(depth)}${"]".repeat(depth)}}`, auth);
    expect([reply.status, reply.json.error.code]).toEqual([400, "INVALID_REQUEST"]);
  });

  it("rejects a body over the limit with 413", async () => {
    const reply = await postRoute(server.url, { query: "hi", context: Array.from({ length: 20 }, () => "z".repeat(4000)) }, auth);
    expect([reply.status, reply.json.error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
  });

  it.each([
    ["emoji", "my pod 🔥 keeps restarting 😭"],
    ["right-to-left text", "הפוד שלי ממשיך לקרוס kubectl"],
    ["combining marks and zero-width characters", "pod\u0301 re\u200bstarting\u200d kube\u0308ctl"],
    ["control characters", "pod\u0000keeps\u0001restarting\u001b[31m\u007f"],
    ["a lone surrogate", "my pod \ud800 keeps restarting \udfff"],
    ["only punctuation", "?!?!... ---"],
    ["one character", "k"],
  ])("routes a query with %s", async (_label, query) => {
    const reply = await postRoute(server.url, { query, context: [query, { role: "user", content: query }] }, auth);
    expect(reply.status).toBe(200);
    expect(["inject", "none"]).toContain(reply.json.decision);
  });

  it.each([
    "application/jsonx",
    "application/json;;",
    "application/json, text/plain",
    "application/json-seq",
    "application/json ; charset=utf-8",
    "application/json;charset=",
    "application/vnd.api+json",
    "application/json; charset=utf-16",
    "text/plain",
    "",
  ])("answers the content type %j with 415 UNSUPPORTED_MEDIA_TYPE", async (contentType) => {
    const reply = await postRoute(server.url, '{"query":"my pod keeps restarting"}', { ...auth, "content-type": contentType });
    expect([reply.status, reply.json.error.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
  });

  it.each(["application/json", "APPLICATION/JSON", "application/json; charset=utf-8", "application/json;charset=UTF-8", 'application/json; charset="utf-8"; profile=x'])(
    "reads the content type %j as JSON",
    async (contentType) => {
      expect((await postRoute(server.url, '{"query":"my pod keeps restarting"}', { ...auth, "content-type": contentType })).status).toBe(200);
    },
  );

  it("answers a compressed body with 415: it is never read as JSON", async () => {
    const reply = await postRoute(server.url, '{"query":"hi"}', { ...auth, "content-encoding": "gzip" });
    expect([reply.status, reply.json.error.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
  });

  it("property: any content type is a 200 or a coded 4xx", async () => {
    const headerText = fc.string({ unit: "binary-ascii", maxLength: 60 }).map((text) => text.replace(/[^\x20-\x7e]/g, "").trim());
    const contentType = fc.oneof(
      headerText,
      headerText.map((tail) => `application/json${tail}`),
      headerText.map((tail) => `application/${tail}json`),
    );
    await fc.assert(
      fc.asyncProperty(contentType, async (type) => {
        expectHandled(await postRoute(server.url, '{"query":"my pod keeps restarting"}', { ...auth, "content-type": type }), type);
      }),
      { numRuns: 150, seed: 17 },
    );
  });

  it("names a bounded few of many unknown skills, with their count", async () => {
    const names = Array.from({ length: 2500 }, (_, n) => `ghost-skill-${n}`);
    const body = JSON.stringify({ query: "hi", skills: names, exclude: names.slice(0, 200) });
    const response = await fetch(`${server.url}/route`, { method: "POST", headers: { "content-type": "application/json", ...auth }, body });
    const text = await response.text();
    const { error } = JSON.parse(text);
    expect([response.status, error.code]).toEqual([400, "UNKNOWN_SKILLS"]);
    expect(error.details.unknownCount).toBe(names.length);
    expect(error.details.unknown).toEqual(names.slice(0, 100));
    expect(error.message.match(/ghost-skill-/g)).toHaveLength(20);
    expect(error.message).toContain(`and ${names.length - 20} more`);
    expect(text.length).toBeLessThan(4 * 1024);
  });

  it("refuses a skill name longer than any name can be, without echoing it", async () => {
    const reply = await postRoute(server.url, { query: "hi", skills: ["y".repeat(50_000)] }, auth);
    expect([reply.status, reply.json.error.code]).toEqual([400, "INVALID_REQUEST"]);
    expect(reply.json.error.message).toMatch(/^skills\.0: /);
    expect(JSON.stringify(reply.json).length).toBeLessThan(1000);
  });

  it("bounds the schema issues it lists", async () => {
    const reply = await postRoute(server.url, { query: "hi", skills: Array.from({ length: 5000 }, () => "") }, auth);
    expect([reply.status, reply.json.error.code, reply.json.error.details.issueCount]).toEqual([400, "INVALID_REQUEST", 5000]);
    expect(reply.json.error.details.issues).toHaveLength(100);
  });

  // Decision: control characters and lone surrogates are valid JSON strings, so the request is valid; routing judges its evidence.
  it("property: a query of control characters and lone surrogates gets 200 and an answer that matches the response schema", async () => {
    const hostileUnit = fc.oneof(
      fc.integer({ min: 0, max: 0x1f }),
      fc.constant(0x7f),
      fc.integer({ min: 0x80, max: 0x9f }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
      fc.integer({ min: 0x61, max: 0x7a }),
    );
    const query = fc
      .array(hostileUnit, { minLength: 1, maxLength: 40 })
      .map((units) => String.fromCharCode(...units))
      .filter((text) => text.trim() !== "");
    await fc.assert(
      fc.asyncProperty(query, async (text) => {
        const response = await fetch(`${server.url}/route`, { method: "POST", headers: { "content-type": "application/json", ...auth }, body: JSON.stringify({ query: text, context: [text] }) });
        const raw = new Uint8Array(await response.arrayBuffer());
        expect(response.status, JSON.stringify(text)).toBe(200);
        // Well-formed: valid UTF-8 (a lone surrogate is escaped, never written as a broken byte sequence) and the documented shape.
        const decoded = new TextDecoder("utf-8", { fatal: true }).decode(raw);
        expect(routeResponseSchema.safeParse(JSON.parse(decoded)).success, JSON.stringify(text)).toBe(true);
      }),
      { numRuns: 60, seed: 19 },
    );
  });

  it("property: any JSON body, any field of any type, any characters: a 200 or a coded 4xx", async () => {
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 60 }),
      fc.string({ unit: "grapheme", maxLength: 60 }),
      fc.string({ unit: "binary-ascii", maxLength: 60 }),
      fc.constantFrom("", "   ", "\ud800", "x".repeat(8001)),
    );
    const anyValue = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 2 }));
    const field = (valid: fc.Arbitrary<unknown>) => fc.option(fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: anyValue }), { nil: undefined });
    const request = fc.record(
      {
        query: fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: anyValue }),
        context: field(fc.array(fc.oneof(text, fc.record({ role: fc.constantFrom("user", "assistant"), content: text })), { maxLength: 3 })),
        k: field(fc.integer({ min: -2, max: 60 })),
        threshold: field(fc.double({ min: -0.5, max: 1.5, noNaN: true })),
        skills: field(fc.array(fc.constantFrom("k8s-debug", "pdf-extract", "ghost", ""), { maxLength: 3 })),
        exclude: field(fc.array(fc.constantFrom("k8s-debug", "git-commit-messages"), { maxLength: 2 })),
        include: field(fc.constantFrom(["body"], ["secrets"], [])),
        multi: field(fc.boolean()),
        extra: field(anyValue),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof({ weight: 4, arbitrary: request }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) });
    await fc.assert(
      fc.asyncProperty(body, async (value) => {
        expectHandled(await postRoute(server.url, JSON.stringify(value), auth), value);
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it("property: random bytes as a JSON body, and random Authorization headers, never reach a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), async (bytes) => {
        const response = await fetch(`${server.url}/route`, { method: "POST", headers: { "content-type": "application/json", ...auth }, body: bytes });
        expectHandled({ status: response.status, headers: response.headers, json: await response.json() }, [...bytes]);
      }),
      { numRuns: 100, seed: 11 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary-ascii", maxLength: 80 }), async (header) => {
        const printable = header.replace(/[^\x20-\x7e]/g, "");
        const reply = await postRoute(server.url, { query: "hi" }, { authorization: printable });
        expect([reply.status, reply.json.error.code]).toEqual([401, expect.stringMatching(/^API_KEY_(MISSING|INVALID)$/)]);
      }),
      { numRuns: 100, seed: 13 },
    );
  });

  it("is still alive and routing correctly after all of it", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const reply = await postRoute(server.url, { query: "my pod keeps restarting with CrashLoopBackOff" }, auth);
    expect(reply.json.selected).toEqual(["k8s-debug"]);
  });
});
