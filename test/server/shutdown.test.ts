import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { startServer } from "../../src/server/serve.js";
import { CLI } from "../helpers/cli.js";
import { writeAgentSkill } from "../helpers/fixtures.js";
import { untilServeReady, waitUntil } from "../helpers/wait.js";
import { postRoute, serveApp, slowEncoder } from "./support.js";

const dir = mkdtempSync(path.join(tmpdir(), "shutdown-"));
const db = path.join(dir, "router.db");

beforeAll(async () => {
  writeAgentSkill(path.join(dir, "skills"), "alpha");
  writeAgentSkill(path.join(dir, "skills"), "beta");
  await runIndex({ paths: [path.join(dir, "skills")], db });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("graceful shutdown", () => {
  it("finishes requests in flight, then refuses new connections", async () => {
    const encoder = slowEncoder(400);
    const server = await startServer({ db, host: "127.0.0.1", port: 0, router: { queryEncoder: encoder } });
    await server.ready;
    const inFlight = Array.from({ length: 3 }, (_, n) => postRoute(server.url, { query: `request ${n}` }));
    await waitUntil(() => encoder.started === 3, "three requests embedding");
    const closing = server.close();
    expect(server.slot.draining).toBe(true);
    const replies = await Promise.all(inFlight);
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200]);
    await closing;
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it("cuts what is still running when the grace period is over", async () => {
    const encoder = slowEncoder(10_000);
    const server = await startServer({ db, host: "127.0.0.1", port: 0, shutdownGraceMs: 200, requestTimeoutMs: 30_000, router: { queryEncoder: encoder } });
    await server.ready;
    const stuck = postRoute(server.url, { query: "never finishes in time" });
    await waitUntil(() => encoder.started === 1, "the request embedding");
    await server.close();
    // Closed while the embedding it cut was still running: close did not wait the 10 s out.
    expect(encoder.finished).toBe(0);
    await expect(stuck).rejects.toThrow();
  });

  it("reports not ready while draining, so a load balancer moves traffic away", async () => {
    const app = await serveApp({ status: () => ({ indexVersion: 1, skills: 1, vectors: 1, embedder: null, reranker: null, rerankerUnavailable: null, fusion: "defaults" }) });
    try {
      expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
      app.slot.draining = true;
      const response = await fetch(`${app.url}/readyz`);
      expect([response.status, ((await response.json()) as { draining: boolean }).draining]).toEqual([503, true]);
    } finally {
      await app.close();
    }
  });

  it("`router serve` drains and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, [CLI, "serve", "--db", db, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    const { stdout } = await untilServeReady(child);
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
    const events = stdout()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { event?: string; msg: string });
    expect(events.at(-1)).toMatchObject({ event: "shutdown", msg: "stopped" });
  });
});
