import path from "node:path";
import { describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { startServer } from "../../src/server/serve.js";
import { tempDir, writeAgentSkill } from "../helpers/fixtures.js";

describe("liveness and readiness", () => {
  it("answers /healthz and /readyz over real HTTP on loopback", async () => {
    const root = tempDir();
    writeAgentSkill(root, "alpha");
    const db = path.join(tempDir(), "router.db");
    await runIndex({ paths: [root], db });
    const server = await startServer({ db, host: "127.0.0.1", port: 0 });
    try {
      const health = await fetch(`${server.url}/healthz`);
      expect([health.status, ((await health.json()) as { status: string }).status]).toEqual([200, "ok"]);
      await server.ready;
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ ready: true, index: { version: 1, skills: 1 }, error: null });
    } finally {
      await server.close();
    }
  });

  it("stays alive but not ready without an index, and says why", async () => {
    const server = await startServer({ db: path.join(tempDir(), "missing.db"), host: "127.0.0.1", port: 0 });
    try {
      await server.ready;
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ ready: false, error: { code: "INDEX_NOT_FOUND" } });
      const route = await fetch(`${server.url}/route`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "hi" }) });
      expect([route.status, ((await route.json()) as { error: { code: string } }).error.code]).toEqual([503, "INDEX_NOT_FOUND"]);
    } finally {
      await server.close();
    }
  });
});
