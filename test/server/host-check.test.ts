import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSettings } from "../../src/config/load-settings.js";
import type { AppOptions } from "../../src/server/app.js";
import { capturedLogs, serveApp } from "./support.js";
import { rawRequest, sendAndWait } from "./raw-http.js";

const API_KEY = "test-key-0123456789abcdef";
// A stand-in router: these tests are about which requests reach it.
const router = { skills: () => [] };
const servers: { close(): Promise<void> }[] = [];
const agent = new http.Agent({ keepAlive: false });

async function serving(options: AppOptions): Promise<string> {
  const server = await serveApp(router, options);
  servers.push(server);
  return server.url;
}

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  agent.destroy();
});

/** GET /skills with these headers (node:http sends the Host given, where fetch would not): status and error code. */
async function get(url: string, headers: Record<string, string>): Promise<[number, string | undefined]> {
  const reply = await rawRequest(url, agent, { method: "GET", path: "/skills", headers });
  if (reply.kind !== "answer") throw new Error(`no answer: ${JSON.stringify(reply)}`);
  return [reply.status, reply.status === 200 ? undefined : (JSON.parse(reply.body) as { error: { code: string } }).error.code];
}

describe("a server without an API key (DNS-rebinding guard)", () => {
  const logs = capturedLogs();
  let url: string;
  let port: string;
  beforeAll(async () => {
    url = await serving({ logger: logs.logger, corsOrigins: ["https://app.example.com"] });
    port = new URL(url).port;
  });

  it("answers loopback names, IP addresses (an address cannot be rebound) and requests without a Host", async () => {
    for (const host of [`localhost:${port}`, "LOCALHOST", `127.0.0.1:${port}`, `[::1]:${port}`, "agent.localhost:8787", "localhost.", "10.1.2.3:8787", "[fd00::1]:8787"]) {
      expect([host, ...(await get(url, { host }))]).toEqual([host, 200, undefined]);
    }
    // HTTP/1.0 needs no Host (Node refuses HTTP/1.1 without one); no browser sends a request without one.
    expect((await sendAndWait(url, Buffer.from("GET /skills HTTP/1.0\r\n\r\n"))).status).toBe(200);
  });

  it("refuses any other name with 421 HOST_NOT_ALLOWED, the JSON error and a warning in the log", async () => {
    for (const host of [`attacker.example:${port}`, "127.0.0.1.attacker.example", "127.attacker.example", "localhost.attacker.example", "localhostx"]) {
      expect([host, ...(await get(url, { host }))]).toEqual([host, 421, "HOST_NOT_ALLOWED"]);
    }
    // Not a host at all: the HTTP adapter refuses it before the check.
    expect(await get(url, { host: "[::1].attacker.example" })).toEqual([400, "MALFORMED_HTTP"]);
    const reply = await rawRequest(url, agent, {
      method: "POST",
      path: "/feedback",
      headers: { host: `rebound.attacker.example:${port}`, origin: `http://rebound.attacker.example:${port}`, "content-type": "application/json" },
      body: Buffer.from("{}"),
    });
    expect(reply).toMatchObject({ kind: "answer", status: 421, headers: { "content-type": "application/json" } });
    const error = JSON.parse((reply as { body: string }).body).error;
    expect(error).toMatchObject({ code: "HOST_NOT_ALLOWED", details: { host: `rebound.attacker.example:${port}` } });
    expect(error.message).toMatch(/ROUTER_ALLOWED_HOSTS.*ROUTER_API_KEY/);
    expect(logs.lines()).toContainEqual(expect.objectContaining({ level: "warn", event: "host_check", code: "HOST_NOT_ALLOWED", host: `rebound.attacker.example:${port}` }));
  });

  it("refuses a browser's foreign Origin with 403 ORIGIN_NOT_ALLOWED, and answers its own pages, loopback pages and CORS origins", async () => {
    const refused = ["https://attacker.example", "http://127.0.0.1.attacker.example:8787", "null", "file://", "chrome-extension://abc", "not an origin", `http://10.1.2.3:${port}`];
    for (const origin of refused) expect([origin, ...(await get(url, { host: `127.0.0.1:${port}`, origin }))]).toEqual([origin, 403, "ORIGIN_NOT_ALLOWED"]);
    const answered = [`http://127.0.0.1:${port}`, "http://localhost:3000", "http://[::1]:5173", "https://app.example.com", "https://APP.example.com:443"];
    for (const origin of answered) expect([origin, ...(await get(url, { host: `127.0.0.1:${port}`, origin }))]).toEqual([origin, 200, undefined]);
    // The explorer reached by the machine's address: its page's origin is the Host it was served for.
    expect(await get(url, { host: "10.1.2.3:8787", origin: "http://10.1.2.3:8787" })).toEqual([200, undefined]);
    expect(logs.lines()).toContainEqual(expect.objectContaining({ level: "warn", event: "host_check", code: "ORIGIN_NOT_ALLOWED", origin: "https://attacker.example" }));
  });

  it("answers the host names it is told to: exact, a domain and its subdomains, or any with *", async () => {
    const listed = await serving({ allowedHosts: ["router", ".corp.example"] });
    for (const host of ["router:8787", "ROUTER", "corp.example", "a.b.corp.example:8787"]) expect([host, ...(await get(listed, { host }))]).toEqual([host, 200, undefined]);
    for (const host of ["router.attacker.example", "xcorp.example", "corp.example.attacker.example"]) expect([host, ...(await get(listed, { host }))]).toEqual([host, 421, "HOST_NOT_ALLOWED"]);
    // A page on an allowed host may call it too.
    expect(await get(listed, { host: "router:8787", origin: "https://wiki.corp.example" })).toEqual([200, undefined]);
    const any = await serving({ allowedHosts: ["*"] });
    expect(await get(any, { host: "anything.example", origin: "https://anywhere.example" })).toEqual([200, undefined]);
  });
});

describe("a server with an API key", () => {
  it("answers any Host (the key is what a rebinding page lacks) but still refuses a foreign Origin", async () => {
    const url = await serving({ apiKey: API_KEY });
    const authorization = `Bearer ${API_KEY}`;
    expect(await get(url, { host: "skill-router.agents.svc.cluster.local:8787", authorization })).toEqual([200, undefined]);
    expect(await get(url, { host: "attacker.example", authorization })).toEqual([200, undefined]);
    expect(await get(url, { host: "attacker.example" })).toEqual([401, "API_KEY_MISSING"]);
    // The explorer behind an ingress: its origin is the name the browser used, which the ingress passed on as Host.
    expect(await get(url, { host: "router.corp.example", origin: "https://router.corp.example", authorization })).toEqual([200, undefined]);
    expect(await get(url, { host: "router.corp.example", origin: "https://attacker.example", authorization })).toEqual([403, "ORIGIN_NOT_ALLOWED"]);
  });
});

describe("the allowedHosts setting", () => {
  it("comes from ROUTER_ALLOWED_HOSTS, --allowed-hosts or the config file, lower-cased, and refuses a URL or a port", () => {
    expect(loadSettings({ env: { ROUTER_ALLOWED_HOSTS: "Router, .Corp.Example ,[fd00::1]" } }).settings.allowedHosts).toEqual(["router", ".corp.example", "[fd00::1]"]);
    expect(loadSettings({ env: {}, flags: { allowedHosts: ["*"] } }).settings.allowedHosts).toEqual(["*"]);
    expect(loadSettings({ env: {} }).settings.allowedHosts).toEqual([]);
    for (const value of ["http://router", "router:8787", "a b"]) {
      expect(() => loadSettings({ env: { ROUTER_ALLOWED_HOSTS: value } })).toThrow(/ROUTER_ALLOWED_HOSTS: must be a host name without scheme or port/);
    }
  });
});
