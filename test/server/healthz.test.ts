import path from "node:path";
import { describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { startServer } from "../../src/server/serve.js";
import { tempDir, writeAgentSkill } from "../helpers/fixtures.js";

describe("GET /healthz", () => {
  it("answers over real HTTP on loopback with the index facts", async () => {
    const root = tempDir();
    writeAgentSkill(root, "alpha");
    const db = path.join(tempDir(), "router.db");
    await runIndex({ paths: [root], db });
    const server = await startServer({ db, host: "127.0.0.1", port: 0 });
    try {
      const response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: "ok", index: { version: 1, skills: 1 } });
    } finally {
      await server.close();
    }
  });

  it("refuses to start without an index", async () => {
    await expect(startServer({ db: path.join(tempDir(), "missing.db"), host: "127.0.0.1", port: 0 })).rejects.toMatchObject({ code: "INDEX_NOT_FOUND" });
  });
});
