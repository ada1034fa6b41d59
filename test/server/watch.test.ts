import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startServer } from "../../src/server/serve.js";
import { CLI } from "../helpers/cli.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";
import { waitUntil } from "../helpers/wait.js";
import { capturedLogs } from "./support.js";

async function skillNames(url: string): Promise<string[]> {
  return ((await (await fetch(`${url}/skills`)).json()) as { name: string }[]).map((skill) => skill.name);
}

describe("router serve --watch", () => {
  it("indexes the folders before serving, then re-indexes once per burst of changes and swaps the new index in", async () => {
    const root = tempDir();
    writeAgentSkill(root, "alpha");
    // The index lives inside the watched folder: its own writes must not start runs.
    const db = path.join(root, "router.db");
    const logs = capturedLogs();
    const server = await startServer({ db, host: "127.0.0.1", port: 0, watch: [root], watchDebounceMs: 300, reloadIntervalMs: 0, cli: CLI, logger: logs.logger });
    try {
      await server.ready;
      expect(server.slot.error).toBeUndefined();
      expect(await skillNames(server.url)).toEqual(["alpha"]);

      writeAgentSkill(root, "beta");
      writeAgentSkill(root, "gamma");
      writeFile(path.join(root, "alpha", "notes.md"), "more");
      writeFile(path.join(root, ".hidden", "SKILL.md"), "ignored by the indexer and the watcher");
      await waitUntil(async () => (await skillNames(server.url)).length === 3, "three skills served");
      expect(await skillNames(server.url)).toEqual(["alpha", "beta", "gamma"]);

      // Quiet now: neither the index's own files nor the hidden folder start another run.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const runs = logs.lines().filter((line) => line.event === "index");
      expect(runs.map((line) => line.msg)).toEqual(["skills re-indexed", "skills re-indexed"]);
      expect(runs[1]).toMatchObject({ added: 2, index_version: 2 });
      expect(server.slot.router!.status().indexVersion).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("logs each file a run could not index with the reason, keeps the rest, and never opens a FIFO that replaced a skill file", async () => {
    const root = tempDir();
    writeAgentSkill(root, "alpha");
    writeAgentSkill(root, "beta");
    const logs = capturedLogs();
    const server = await startServer({ db: path.join(tempDir(), "router.db"), host: "127.0.0.1", port: 0, watch: [root], watchDebounceMs: 300, reloadIntervalMs: 0, cli: CLI, logger: logs.logger });
    try {
      await server.ready;
      expect(await skillNames(server.url)).toEqual(["alpha", "beta"]);

      // beta's SKILL.md becomes a FIFO (reading one blocks forever), and a folder named SKILL.md appears.
      const fifo = path.join(root, "beta", "SKILL.md");
      rmSync(fifo);
      execFileSync("mkfifo", [fifo]);
      mkdirSync(path.join(root, "gamma", "SKILL.md"), { recursive: true });
      await waitUntil(async () => (await skillNames(server.url)).length === 1, "one skill served");
      expect(await skillNames(server.url)).toEqual(["alpha"]);
      expect(
        logs
          .lines()
          .filter((line) => line.event === "index")
          .at(-1),
      ).toMatchObject({ msg: "skills re-indexed", removed: 1, invalid: 2 });
      expect(
        logs
          .lines()
          .filter((line) => line.event === "index_invalid")
          .map(({ level, file, reason }) => ({ level, file, reason })),
      ).toEqual([
        { level: "warn", file: fifo, reason: "SKILL.md is a FIFO (named pipe), not a file; not read as a skill" },
        { level: "warn", file: path.join(root, "gamma", "SKILL.md"), reason: "SKILL.md is a folder, not a file; not read as a skill" },
      ]);
      expect((await fetch(`${server.url}/route`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "alpha tasks" }) })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("is not ready, and says why, when the first index run fails and there is no index to fall back on", async () => {
    const missing = path.join(tempDir(), "no-such-folder");
    const server = await startServer({ db: path.join(tempDir(), "router.db"), host: "127.0.0.1", port: 0, watch: [missing], cli: CLI });
    try {
      await server.ready;
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { error: { code: string } }).error.code).toBe("PATH_NOT_FOUND");
    } finally {
      await server.close();
    }
  });
});
