import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteResult } from "../../src/contract/route.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { capturedLogs, postRoute, serveApp } from "./support.js";

const dir = mkdtempSync(path.join(tmpdir(), "observability-"));
const logs = capturedLogs();
let server: RunningServer;

beforeAll(async () => {
  const { db } = await indexSkillSet(dir);
  server = await startServer({ db, host: "127.0.0.1", port: 0, logger: logs.logger });
  await server.ready;
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("decision log", () => {
  it("writes one line per route: the query's hash, the top candidates with signals, the decision, the index version and the latency", async () => {
    const query = "my pod keeps restarting with CrashLoopBackOff";
    const reply = await postRoute(server.url, { query }, { "x-request-id": "trace-42" });
    expect(reply.headers.get("x-request-id")).toBe("trace-42");
    const lines = logs.lines().filter((line) => line.event === "route" && line.request_id === "trace-42");
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: "info",
      service: "skill-router",
      query_sha256: sha256(query),
      query_chars: query.length,
      decision: "inject",
      selected: ["k8s-debug"],
      invoked: null,
      index_version: 1,
    });
    expect(line).not.toHaveProperty("query");
    expect(line!.latency_ms).toBeGreaterThan(0);
    expect(line!.candidates[0]).toMatchObject({ name: "k8s-debug", confidence: expect.any(Number), signals: { q2q_max: expect.any(Number), bm25: expect.any(Number) } });
    expect(line!.candidates.length).toBeLessThanOrEqual(3);
    expect(JSON.stringify(logs.lines())).not.toContain(query);
  });

  it("logs the query text only when told to, and nothing when off", async () => {
    const plain = capturedLogs();
    const withText = await serveApp(routerAnswering(), { decisionLog: "query", logger: plain.logger });
    const quiet = capturedLogs();
    const off = await serveApp(routerAnswering(), { decisionLog: "off", logger: quiet.logger });
    try {
      await postRoute(withText.url, { query: "write my commit message" });
      await postRoute(off.url, { query: "write my commit message" });
      expect(plain.lines().find((line) => line.event === "route")).toMatchObject({ query: "write my commit message" });
      expect(quiet.lines().filter((line) => line.event === "route")).toEqual([]);
      expect(quiet.lines().filter((line) => line.event === "request")).toHaveLength(1);
    } finally {
      await Promise.all([withText.close(), off.close()]);
    }
  });

  it("gives every request an access line, and replaces a request id it cannot trust", async () => {
    const response = await fetch(`${server.url}/skills`, { headers: { "x-request-id": "bad id\twith spaces" } });
    const id = response.headers.get("x-request-id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(logs.lines().find((line) => line.event === "request" && line.request_id === id)).toMatchObject({
      method: "GET",
      path: "/skills",
      route: "/skills",
      status: 200,
      duration_ms: expect.any(Number),
    });
  });
});

describe("GET /metrics", () => {
  it("counts requests per endpoint pattern, decisions per skill and abstentions, and reports index size and load times", async () => {
    await postRoute(server.url, { query: "my pod keeps restarting with CrashLoopBackOff" });
    await postRoute(server.url, { query: "what is the capital of mongolia" });
    await fetch(`${server.url}/skills/pdf-extract`);
    await fetch(`${server.url}/skills/no-such-skill`);
    await fetch(`${server.url}/nowhere/at/all`);
    const response = await fetch(`${server.url}/metrics`);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    const value = (pattern: string) => Number(new RegExp(`^${pattern.replace(/[{}]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1]);
    expect(value('router_http_requests_total{method="GET",route="/skills/:name",status="200"}')).toBe(1);
    expect(value('router_http_requests_total{method="GET",route="/skills/:name",status="404"}')).toBe(1);
    expect(value('router_http_requests_total{method="GET",route="unmatched",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^router_http_request_duration_seconds_bucket\{le="0.05",method="POST",route="\/route",status="200"\} \d+$/m);
    expect(value('router_route_decisions_total{skill="k8s-debug"}')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^router_route_abstentions_total\{reason="(below_threshold|small_margin|no_candidates)"\} \d+$/m);
    expect(value("router_index_skills")).toBe(5);
    expect(value("router_index_vectors")).toBeGreaterThan(5);
    expect(value("router_index_version")).toBe(1);
    expect(value("router_model_load_seconds")).toBeGreaterThan(0);
    expect(value("router_index_load_seconds")).toBeGreaterThan(0);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).not.toContain("/nowhere/at/all");
  });
});

describe("OpenAPI and the docs page", () => {
  it("documents the bearer scheme, and liveness as open", async () => {
    const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as any;
    expect(spec.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(spec.security).toEqual([{ bearerAuth: [] }]);
    expect(spec.paths["/healthz"].get.security).toEqual([]);
    expect(Object.keys(spec.paths["/route"].post.responses).sort()).toEqual(["200", "400", "401", "408", "413", "415", "503"]);
  });

  it("serves a self-contained page with the spec inside and a policy that loads nothing from elsewhere", async () => {
    const response = await fetch(`${server.url}/docs`);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const policy = response.headers.get("content-security-policy")!;
    expect(policy).toMatch(/default-src 'none'/);
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    const html = await response.text();
    const spec = JSON.parse(/<script type="application\/json" id="spec">(.*?)<\/script>/s.exec(html)![1]!) as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths)).toContain("/route");
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!app\.example)/);
    const script = /<script>(.*?)<\/script>/s.exec(html)![1]!;
    expect(policy).toContain(`'sha256-${createHash("sha256").update(script).digest("base64")}'`);
  });
});

/** A stand-in router that always injects the same skill. */
function routerAnswering() {
  const result: RouteResult = {
    decision: "inject",
    selected: ["git-commit-messages"],
    offer: null,
    skills: [],
    reason: null,
    in_scope: 0.9,
    threshold: 0.5,
    min_margin: 0.1,
    evidence_floor: null,
    invoked: null,
    warnings: [],
    route_id: "stand-in",
    timing_ms: { embed: 1, retrieve: 1, score: 1, rerank: 0, total: 3, cached: false },
    index_version: 7,
    embedder: "stand-in",
    reranker: null,
  };
  return { route: async () => result };
}
