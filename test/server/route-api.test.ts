import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MAX_CONTEXT_MESSAGES, MAX_QUERY_CHARS, routableQuery } from "../../src/contract/limits.js";
import { routeResponseSchema } from "../../src/server/schemas.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { indexSkillSet } from "../helpers/skill-set.js";

const dir = mkdtempSync(path.join(tmpdir(), "route-api-"));
let server: RunningServer;

beforeAll(async () => {
  const { db } = await indexSkillSet(dir);
  server = await startServer({ db, host: "127.0.0.1", port: 0 });
  await server.ready;
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(body: unknown, headers: Record<string, string> = { "content-type": "application/json" }): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server.url}/route`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

describe("POST /route", () => {
  // A query and the 3 context messages read, each 8,000 characters (code points, as the contract counts them): escaped
  // control characters or lone surrogates (6 bytes each) make it about 200,000 bytes, under the default 1 MiB body limit.
  it.each([
    ["one letter", "x"],
    ["emoji", "😀"],
    ["Chinese", "中"],
    ["control characters", "\u0001"],
    ["lone surrogates", "\ud800"],
  ])("answers the largest valid request, a query and its context messages at their limits of %s, with 200", async (_label, unit) => {
    const longest = unit.repeat(MAX_QUERY_CHARS);
    const body = JSON.stringify({ query: longest, context: Array.from({ length: MAX_CONTEXT_MESSAGES }, () => ({ role: "r".repeat(64), content: longest })) });
    expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
    const response = await fetch(`${server.url}/route`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(response.status).toBe(200);
    expect(routeResponseSchema.safeParse(await response.json()).success).toBe(true);
  });

  it("counts the query's length in characters, not UTF-16 units", async () => {
    expect((await post({ query: "😀".repeat(MAX_QUERY_CHARS + 1) })).json.error.code).toBe("QUERY_TOO_LONG");
    expect(routableQuery("😀".repeat(MAX_QUERY_CHARS + 1))).toBe("😀".repeat(MAX_QUERY_CHARS));
  });

  it("answers with the decision, ranked skills, timing and index version", async () => {
    const { status, json } = await post({ query: "my pod keeps restarting with CrashLoopBackOff", k: 2, include: ["body"] });
    expect(status).toBe(200);
    expect(json).toMatchObject({ decision: "inject", selected: ["k8s-debug"], index_version: 1, embedder: "use-lite-512", reason: null });
    expect(json.skills).toHaveLength(2);
    expect(json.skills[0]).toMatchObject({ name: "k8s-debug", kind: "skill", tokens: expect.any(Number), body: expect.stringContaining("kubectl") });
    expect(Object.keys(json.timing_ms).sort()).toEqual(["cached", "embed", "rerank", "retrieve", "score", "total"]);
  });

  it.each([
    ["an empty query", { query: "" }, 400, "QUERY_EMPTY"],
    ["a whitespace query", { query: "   \n\t" }, 400, "QUERY_EMPTY"],
    ["a missing query", {}, 400, "QUERY_NOT_STRING"],
    ["a non-string query", { query: 42 }, 400, "QUERY_NOT_STRING"],
    ["an over-long query", { query: "x".repeat(8001) }, 400, "QUERY_TOO_LONG"],
    ["an unknown field", { query: "hi", treshold: 0.5 }, 400, "INVALID_REQUEST"],
    ["k out of range", { query: "hi", k: 0 }, 400, "INVALID_REQUEST"],
    ["a threshold above 1", { query: "hi", threshold: 2 }, 400, "INVALID_REQUEST"],
    ["a wrong include", { query: "hi", include: ["secrets"] }, 400, "INVALID_REQUEST"],
    ["a body that is an array", [1, 2], 400, "INVALID_REQUEST"],
  ])("rejects %s with a stable code", async (_label, body, status, code) => {
    const response = await post(body);
    expect([response.status, response.json.error.code]).toEqual([status, code]);
    expect(response.json.error.message).toEqual(expect.any(String));
  });

  it("rejects unknown skills in the allow-list and lists them", async () => {
    const { status, json } = await post({ query: "hi", skills: ["k8s-debug", "ghost"] });
    expect([status, json.error.code, json.error.details.unknown]).toEqual([400, "UNKNOWN_SKILLS", ["ghost"]]);
  });

  it("rejects malformed JSON and a wrong content type", async () => {
    const malformed = await post('{"query": "hi"');
    expect([malformed.status, malformed.json.error.code]).toEqual([400, "MALFORMED_JSON"]);
    const text = await post("query=hi", { "content-type": "text/plain" });
    expect([text.status, text.json.error.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
    const none = await post('{"query":"hi"}', {});
    expect(none.status).toBe(415);
  });
});

describe("skills endpoints", () => {
  it("lists skills and shows one with exactly what would be injected", async () => {
    const list = (await (await fetch(`${server.url}/skills`)).json()) as { name: string }[];
    expect(list.map((skill) => skill.name)).toContain("k8s-debug");
    const one = await fetch(`${server.url}/skills/k8s-debug`);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ name: "k8s-debug", body: expect.stringContaining("kubectl describe pod") });
  });

  it("never reads outside the index, whatever the name", async () => {
    for (const name of ["..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "nope"]) {
      const response = await fetch(`${server.url}/skills/${name}`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toMatch(/SKILL_NOT_FOUND|ROUTE_NOT_FOUND/);
    }
  });

  it("answers unknown endpoints with a JSON 404 and serves its OpenAPI document", async () => {
    const missing = await fetch(`${server.url}/nowhere`);
    expect([missing.status, ((await missing.json()) as { error: { code: string } }).error.code]).toEqual([404, "ROUTE_NOT_FOUND"]);
    const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths).sort()).toEqual(["/eval", "/feedback", "/healthz", "/readyz", "/route", "/skills", "/skills/{name}"]);
  });
});
