import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRouterClient, RouterClientError, type RouteOutcome } from "../../src/client/index.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { closedEndpoint } from "../helpers/mock-hub.js";
import { startScriptedServer, type ScriptedServer } from "./scripted-server.js";

const dir = mkdtempSync(path.join(tmpdir(), "client-"));
let server: RunningServer;
const scripted: ScriptedServer[] = [];

beforeAll(async () => {
  const { db } = await indexSkillSet(dir);
  server = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 0 });
  await server.ready;
});

afterAll(async () => {
  await Promise.all(scripted.map((item) => item.close()));
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function scriptedServer(...args: Parameters<typeof startScriptedServer>): Promise<ScriptedServer> {
  const started = await startScriptedServer(...args);
  scripted.push(started);
  return started;
}

describe("against a running router", () => {
  it("routes, lists and shows skills with the server's own shapes", async () => {
    const client = createRouterClient({ url: `${server.url}/` });
    const result = await client.route("my pod keeps restarting with CrashLoopBackOff", { k: 2, include: ["body"] });
    expect(result).toMatchObject({ decision: "inject", selected: ["k8s-debug"], reason: null, index_version: 1 });
    expect(result.skills[0]).toMatchObject({ name: "k8s-debug", body: expect.stringContaining("kubectl") });
    expect((await client.skills()).map((skill) => skill.name)).toContain("pdf-extract");
    expect(await client.skill("k8s-debug")).toMatchObject({
      name: "k8s-debug",
      kind: "skill",
      body: expect.stringContaining("kubectl describe pod"),
      source_path: expect.stringContaining("SKILL.md"),
    });
  });

  it("sends the last messages of a long conversation, the most the router reads", async () => {
    const client = createRouterClient({ url: server.url });
    const context = Array.from({ length: 12 }, (_, n) => `earlier message ${n}`);
    expect(await client.routeOrThrow("my pod keeps restarting with CrashLoopBackOff", { context })).toMatchObject({ selected: ["k8s-debug"] });
    const direct = await fetch(`${server.url}/route`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "my pod keeps restarting", context }) });
    expect([direct.status, ((await direct.json()) as { error: { code: string } }).error.code]).toEqual([400, "INVALID_REQUEST"]);
  });

  it("answers undefined for a skill that does not exist, whatever its name", async () => {
    const client = createRouterClient({ url: server.url });
    expect(await client.skill("ghost")).toBeUndefined();
    expect(await client.skill("../../etc/passwd")).toBeUndefined();
  });

  it("falls back on a request the router rejects, and routeOrThrow says why", async () => {
    const client = createRouterClient({ url: server.url });
    const outcome = await client.route("x".repeat(9000));
    expect(outcome).toEqual({ decision: "none", selected: [], skills: [], reason: "request_rejected", error: { code: "QUERY_TOO_LONG", message: expect.any(String), status: 400 } });
    const error = await client.routeOrThrow("hi", { skills: ["ghost"] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RouterClientError);
    expect(error).toMatchObject({ code: "UNKNOWN_SKILLS", status: 400, details: { unknown: ["ghost"] } });
  });
});

describe("oversized requests", () => {
  it("reports PAYLOAD_TOO_LARGE every time, never ROUTER_UNREACHABLE, on a kept-alive connection", async () => {
    const client = createRouterClient({ url: server.url, retries: 0, timeoutMs: 10_000 });
    const context = Array.from({ length: 20 }, () => "z".repeat(8000));
    const skills = Array.from({ length: 1_000_000 }, () => "abcdefg");
    for (let round = 0; round < 4; round++) {
      const outcome = await client.route("hi", { context, skills });
      expect(outcome, `round ${round}`).toMatchObject({ decision: "none", reason: "request_rejected", error: { code: "PAYLOAD_TOO_LARGE", status: 413 } });
    }
    expect((await client.routeOrThrow("my pod keeps restarting")).decision).toBe("inject");
  });
});

describe("when the router cannot answer", () => {
  it("falls back at once when nothing listens, after bounded retries", async () => {
    let attempts = 0;
    const counting: typeof fetch = (input, init) => {
      attempts++;
      return fetch(input, init);
    };
    const client = createRouterClient({ url: await closedEndpoint(), retries: 2, timeoutMs: 5000, fetch: counting });
    const started = Date.now();
    const outcome: RouteOutcome = await client.route("my pod keeps restarting");
    expect(outcome).toMatchObject({ decision: "none", reason: "router_unavailable", error: { code: "ROUTER_UNREACHABLE", message: expect.stringContaining("ECONNREFUSED") } });
    expect(attempts).toBe(3);
    // Two backoffs (100 + 200 ms) and three refused connections, far below the 5 s budget even on a busy machine.
    expect(Date.now() - started).toBeLessThan(3000);
    await expect(client.skills()).rejects.toMatchObject({ code: "ROUTER_UNREACHABLE" });
  });

  it("stops waiting for a router that never answers at the time budget", async () => {
    const silent = await scriptedServer(() => "hang");
    const client = createRouterClient({ url: silent.url, timeoutMs: 300 });
    const started = Date.now();
    const outcome = await client.route("my pod keeps restarting");
    const waited = Date.now() - started;
    expect(outcome).toMatchObject({ decision: "none", reason: "router_unavailable", error: { code: "ROUTER_TIMEOUT" } });
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(3000);
    expect(silent.seen).toHaveLength(1);
  });

  it("retries a router that is still loading, then gets the real answer", async () => {
    const loading = { status: 503, body: JSON.stringify({ error: { code: "NOT_READY", message: "loading" } }) };
    const warming = await scriptedServer((_request, index) => (index < 2 ? loading : { forward: server.url }));
    const client = createRouterClient({ url: warming.url, timeoutMs: 5000 });
    const outcome = await client.route("my pod keeps restarting with CrashLoopBackOff");
    expect(outcome).toMatchObject({ decision: "inject", selected: ["k8s-debug"] });
    expect(warming.seen).toHaveLength(3);
  });

  it("gives up on a 503 when the retries are spent, with the router's own code", async () => {
    const loading = await scriptedServer(() => ({ status: 503, body: JSON.stringify({ error: { code: "NOT_READY", message: "loading" } }) }));
    const outcome = await createRouterClient({ url: loading.url, retries: 1 }).route("hi");
    expect(outcome).toMatchObject({ reason: "router_unavailable", error: { code: "NOT_READY", status: 503 } });
    expect(loading.seen).toHaveLength(2);
  });

  it("does not wait out a Retry-After longer than its budget", async () => {
    const busy = await scriptedServer(() => ({ status: 429, body: JSON.stringify({ error: { code: "RATE_LIMITED", message: "slow down" } }), headers: { "retry-after": "30" } }));
    const started = Date.now();
    const outcome = await createRouterClient({ url: busy.url, timeoutMs: 2000 }).route("hi");
    expect(outcome).toMatchObject({ reason: "router_unavailable", error: { code: "RATE_LIMITED", status: 429 } });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(busy.seen).toHaveLength(1);
  });

  it("never retries a rejected request", async () => {
    const strict = await scriptedServer(() => ({ status: 401, body: JSON.stringify({ error: { code: "UNAUTHORIZED", message: "missing API key" } }) }));
    const outcome = await createRouterClient({ url: strict.url }).route("hi");
    expect(outcome).toMatchObject({ reason: "request_rejected", error: { code: "UNAUTHORIZED", status: 401 } });
    expect(strict.seen).toHaveLength(1);
  });

  it("names a server that is not a router", async () => {
    const stranger = await scriptedServer(() => ({ status: 200, body: "<html>hello</html>", headers: { "content-type": "text/html" } }));
    const outcome = await createRouterClient({ url: stranger.url }).route("hi");
    expect(outcome).toMatchObject({ reason: "router_unavailable", error: { code: "BAD_RESPONSE", message: expect.stringContaining("not JSON") } });
    const other = await scriptedServer(() => ({ status: 200, body: "{}" }));
    await expect(createRouterClient({ url: other.url }).routeOrThrow("hi")).rejects.toMatchObject({ code: "BAD_RESPONSE" });
  });

  it("stops when the caller aborts", async () => {
    const silent = await scriptedServer(() => "hang");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const outcome = await createRouterClient({ url: silent.url, timeoutMs: 10_000 }).route("hi", { signal: controller.signal });
    expect(outcome).toMatchObject({ reason: "router_unavailable", error: { code: "ABORTED" } });
  });
});

describe("settings", () => {
  it("sends the API key as a bearer token, from the option or ROUTER_API_KEY", async () => {
    const recorder = await scriptedServer(() => ({ forward: server.url }));
    await createRouterClient({ url: recorder.url, apiKey: "from-option" }).skills();
    process.env.ROUTER_API_KEY = "from-env";
    try {
      await createRouterClient({ url: recorder.url }).skills();
    } finally {
      delete process.env.ROUTER_API_KEY;
    }
    await createRouterClient({ url: recorder.url }).skills();
    expect(recorder.seen.map((request) => request.headers.authorization)).toEqual(["Bearer from-option", "Bearer from-env", undefined]);
  });

  it("takes the URL from ROUTER_URL and refuses a nonsense budget", () => {
    process.env.ROUTER_URL = "http://127.0.0.1:9/";
    try {
      expect(createRouterClient().url).toBe("http://127.0.0.1:9");
    } finally {
      delete process.env.ROUTER_URL;
    }
    expect(() => createRouterClient({ timeoutMs: 0 })).toThrow(RangeError);
    expect(() => createRouterClient({ retries: -1 })).toThrow(RangeError);
  });
});
