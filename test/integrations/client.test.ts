import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRouterClient, offerText, RouterClientError, type RouteOutcome } from "../../src/client/index.js";
import type { Router } from "../../src/route/router.js";
import type { AppOptions } from "../../src/server/app.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { CLI } from "../helpers/cli.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { INVOICE_REQUEST, indexOfferSkills } from "../helpers/offer-skills.js";
import { closedEndpoint } from "../helpers/mock-hub.js";
import { serveApp } from "../server/support.js";
import { startScriptedServer, type ScriptedServer } from "./scripted-server.js";

const dir = mkdtempSync(path.join(tmpdir(), "client-"));
let server: RunningServer;
const scripted: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  const { db } = await indexSkillSet(dir);
  server = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 0, cli: CLI });
  await server.ready;
});

afterAll(async () => {
  await Promise.all(scripted.map((item) => item.close()));
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The global fetch, counting the requests the client sends through it. */
function countingFetch(): { fetch: typeof fetch; attempts: () => number } {
  let attempts = 0;
  return {
    fetch: (input, init) => {
      attempts++;
      return fetch(input, init);
    },
    attempts: () => attempts,
  };
}

/** The router's own app on a loopback port, over the running server's router or none yet (loading); closed after the file. */
async function realApp(router: Router | undefined, options: AppOptions = {}): Promise<Awaited<ReturnType<typeof serveApp>>> {
  const app = await serveApp({}, options);
  app.slot.router = router;
  scripted.push(app);
  return app;
}

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
    expect(outcome).toEqual({ decision: "none", selected: [], offer: null, skills: [], reason: "request_rejected", error: { code: "QUERY_TOO_LONG", message: expect.any(String), status: 400 } });
    const error = await client.routeOrThrow("hi", { skills: ["ghost"] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RouterClientError);
    expect(error).toMatchObject({ code: "UNKNOWN_SKILLS", status: 400, details: { unknown: ["ghost"] } });
  });
});

describe("feedback", () => {
  it("says which skill an answer should have injected, with its route_id and the client's name, and gets what was stored", async () => {
    const client = createRouterClient({ url: server.url, clientName: "test-agent" });
    const query = "the pods of the staging deployment crash right after start";
    const answer = await client.routeOrThrow(query);
    const result = await client.feedback({ query, skill: "k8s-debug", route_id: answer.route_id });
    expect(result).toMatchObject({ stored: { query, skill: "k8s-debug", role: "example", client: "test-agent", times: 1 }, duplicate: false, applies: expect.any(String) });
    expect(result.stored.note).toContain("an example of k8s-debug");
    // Said again (a retry, say): stored once, counted as a duplicate.
    expect(await client.feedback({ query, skill: "k8s-debug", route_id: answer.route_id })).toMatchObject({ stored: { id: result.stored.id, times: 2 }, duplicate: true });
  });

  it("says no skill should have answered, and names the skill injected wrongly", async () => {
    const client = createRouterClient({ url: server.url });
    const query = "kubectl is what our intern named the office cat";
    const answer = await client.routeOrThrow(query, { threshold: 0, offer: false });
    expect(answer.selected).toEqual(["k8s-debug"]);
    const { stored } = await client.feedback({ query, skill: null, route_id: answer.route_id });
    expect(stored).toMatchObject({ skill: null, wrong: "k8s-debug", role: "none", client: "api" });
  });

  it("rejects an unknown skill with the router's code and the names it suggests, and a router it cannot reach as not rejected", async () => {
    const error = await createRouterClient({ url: server.url })
      .feedback({ query: "my pod keeps restarting", skill: "k8s-debugg" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RouterClientError);
    expect(error).toMatchObject({ code: "SKILL_NOT_FOUND", status: 404, rejected: true, details: { suggestions: ["k8s-debug"] } });
    const down = await createRouterClient({ url: await closedEndpoint(), retries: 0 })
      .feedback({ query: "my pod keeps restarting", skill: "k8s-debug" })
      .catch((caught: unknown) => caught);
    expect(down).toMatchObject({ code: "ROUTER_UNREACHABLE", rejected: false });
    const stranger = await scriptedServer(() => ({ status: 201, body: "{}" }));
    await expect(createRouterClient({ url: stranger.url }).feedback({ query: "hi", skill: null })).rejects.toMatchObject({ code: "BAD_RESPONSE" });
  });

  it("sends its name as X-Router-Client with feedback only", async () => {
    const recorder = await scriptedServer(() => ({ forward: server.url }));
    const client = createRouterClient({ url: recorder.url, clientName: "test-agent" });
    await client.route("my pod keeps restarting");
    await client.feedback({ query: "which pdf library reads tables", skill: "pdf-extract" });
    expect(recorder.seen.map((request) => [request.url, request.headers["x-router-client"]])).toEqual([
      ["/route", undefined],
      ["/feedback", "test-agent"],
    ]);
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
  it("falls back when nothing listens, after bounded retries", async () => {
    const counting = countingFetch();
    const client = createRouterClient({ url: await closedEndpoint(), retries: 2, timeoutMs: 5000, fetch: counting.fetch });
    const outcome: RouteOutcome = await client.route("my pod keeps restarting");
    expect(outcome).toMatchObject({ decision: "none", reason: "router_unavailable", error: { code: "ROUTER_UNREACHABLE", message: expect.stringContaining("ECONNREFUSED") } });
    expect(counting.attempts()).toBe(3);
    await expect(client.skills()).rejects.toMatchObject({ code: "ROUTER_UNREACHABLE" });
  });

  it("stops waiting for a router that never answers at the time budget", async () => {
    const silent = await scriptedServer(() => "hang");
    const client = createRouterClient({ url: silent.url, timeoutMs: 300 });
    const outcome = await client.route("my pod keeps restarting");
    expect(outcome).toMatchObject({ decision: "none", reason: "router_unavailable", error: { code: "ROUTER_TIMEOUT" } });
    // The request was sent and never answered: the time budget, not the router, ended it.
    expect(silent.seen).toHaveLength(1);
  });

  it("retries a router that is still loading, then gets the real answer", async () => {
    const warming = await realApp(undefined);
    const counting = countingFetch();
    // The router finishes loading after the client's second attempt was answered 503 NOT_READY.
    const client = createRouterClient({
      url: warming.url,
      timeoutMs: 5000,
      fetch: async (input, init) => {
        const answer = await counting.fetch(input, init);
        if (counting.attempts() === 2) warming.slot.router = server.slot.router;
        return answer;
      },
    });
    const outcome = await client.route("my pod keeps restarting with CrashLoopBackOff");
    expect(outcome).toMatchObject({ decision: "inject", selected: ["k8s-debug"] });
    expect(counting.attempts()).toBe(3);
  });

  it("gives up on a 503 when the retries are spent, with the router's own code", async () => {
    const loading = await realApp(undefined);
    const counting = countingFetch();
    const outcome = await createRouterClient({ url: loading.url, retries: 1, fetch: counting.fetch }).route("hi");
    expect(outcome).toMatchObject({ reason: "router_unavailable", error: { code: "NOT_READY", status: 503 } });
    expect(counting.attempts()).toBe(2);
  });

  it("does not wait out a Retry-After longer than its budget", async () => {
    const busy = await scriptedServer(() => ({ status: 429, body: JSON.stringify({ error: { code: "RATE_LIMITED", message: "slow down" } }), headers: { "retry-after": "30" } }));
    const outcome = await createRouterClient({ url: busy.url, timeoutMs: 2000 }).route("hi");
    expect(outcome).toMatchObject({ reason: "router_unavailable", error: { code: "RATE_LIMITED", status: 429 } });
    // Asked once: waiting 30 s for a second answer would overrun the 2 s budget, so the client did not.
    expect(busy.seen).toHaveLength(1);
  });

  it("never retries a rejected request: a missing or wrong API key", async () => {
    const keyed = await realApp(server.slot.router, { apiKey: "client-test-key-0123456789" });
    const counting = countingFetch();
    const missing = await createRouterClient({ url: keyed.url, fetch: counting.fetch }).route("hi");
    expect(missing).toMatchObject({ reason: "request_rejected", error: { code: "API_KEY_MISSING", status: 401 } });
    const wrong = await createRouterClient({ url: keyed.url, apiKey: "not-the-key", fetch: counting.fetch }).route("hi");
    expect(wrong).toMatchObject({ reason: "request_rejected", error: { code: "API_KEY_INVALID", status: 401 } });
    expect(counting.attempts()).toBe(2);
    expect(await createRouterClient({ url: keyed.url, apiKey: "client-test-key-0123456789" }).routeOrThrow("my pod keeps restarting")).toMatchObject({ decision: "inject" });
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

describe("an offer, in two steps", () => {
  it("hands the agent the offered skills' descriptions, then the one it chooses", async () => {
    const offerDir = mkdtempSync(path.join(tmpdir(), "client-offer-"));
    const offering = await startServer({ db: await indexOfferSkills(offerDir), host: "127.0.0.1", port: 0, reloadIntervalMs: 0, cli: CLI });
    try {
      await offering.ready;
      const client = createRouterClient({ url: offering.url });
      const result = await client.routeOrThrow(INVOICE_REQUEST);
      expect(result.decision).toBe("offer");
      // Step one: the list as the agent reads it; step two: the skill it chose, loaded by name.
      const listed = offerText(result.offer!.skills, "with the load_skill tool");
      expect(listed).toContain("- invoice-pdf: Create PDF invoices for clients with line items and tax.");
      expect(listed).toContain("load it with the load_skill tool");
      expect((await client.skill("invoice-pdf"))?.body).toContain("# Invoices as PDF");
      expect(await client.feedback({ query: INVOICE_REQUEST, skill: "invoice-pdf", route_id: result.route_id })).toMatchObject({ stored: { skill: "invoice-pdf", wrong: null, role: "example" } });
    } finally {
      await offering.close();
      rmSync(offerDir, { recursive: true, force: true });
    }
  });
});
