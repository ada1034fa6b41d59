import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { startServer } from "../../src/server/serve.js";
import { CLI, runCli } from "../helpers/cli.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";
import { capturedLogs } from "./support.js";

/** `router serve` in a child process, and its JSON log lines as they arrive. */
function serveCli(db: string): { child: ChildProcess; lines: () => Record<string, any>[] } {
  const child = spawn(process.execPath, [CLI, "serve", "--db", db, "--port", "0", "--reload-interval-ms", "100"], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const lines = () =>
    stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, any>);
  return { child, lines };
}

/** Waits (the test's own timeout bounds it) until `found` says yes. */
async function until<T>(found: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await found();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function readiness(url: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: await response.json() };
}

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

  it("`router serve` without an index stays up, not ready, says why, and loads the index once it is written", async () => {
    const root = tempDir();
    writeAgentSkill(root, "alpha");
    const db = path.join(tempDir(), "router.db");
    const { child, lines } = serveCli(db);
    try {
      const url = await until(() => lines().find((line) => line.event === "listening")?.url as string | undefined);
      await until(() => lines().find((line) => line.event === "load"));
      expect(child.exitCode).toBeNull();
      expect(await readiness(url)).toMatchObject({ status: 503, body: { ready: false, error: { code: "INDEX_NOT_FOUND" } } });
      expect(runCli(["index", root, "--db", db, "-q"]).status).toBe(0);
      const ready = await until(async () => {
        const answer = await readiness(url);
        return answer.status === 200 ? answer : undefined;
      });
      expect(ready.body).toMatchObject({ ready: true, index: { skills: 1 }, error: null });
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });

  it("`router serve` on a damaged index stays up and says INDEX_CORRUPT", async () => {
    const db = writeFile(path.join(tempDir(), "router.db"), "this is not a database\n".repeat(200));
    const { child, lines } = serveCli(db);
    try {
      const url = await until(() => lines().find((line) => line.event === "listening")?.url as string | undefined);
      await until(() => lines().find((line) => line.event === "load"));
      expect(await readiness(url)).toMatchObject({ status: 503, body: { ready: false, error: { code: "INDEX_CORRUPT", message: expect.stringContaining("router index") } } });
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  });

  it("logs readiness's 503s while loading at debug, and a failed load once at error however often it is tried again", async () => {
    const logs = capturedLogs();
    const db = path.join(tempDir(), "router.db");
    const server = await startServer({ db, host: "127.0.0.1", port: 0, logger: logs.logger, reloadIntervalMs: 0 });
    try {
      await server.ready;
      for (let attempt = 0; attempt < 3; attempt++) {
        expect((await readiness(server.url)).status).toBe(503);
        expect(await server.reload()).toBe(false);
      }
      const probes = logs.lines().filter((line) => line.event === "request" && line.path === "/readyz");
      expect(probes.map((line) => [line.status, line.level])).toEqual([
        [503, "debug"],
        [503, "debug"],
        [503, "debug"],
      ]);
      expect(logs.lines().filter((line) => line.level === "error")).toEqual([expect.objectContaining({ event: "load", code: "INDEX_NOT_FOUND" })]);
      // The file appears: the next look loads it.
      const root = tempDir();
      writeAgentSkill(root, "alpha");
      await runIndex({ paths: [root], db });
      expect(await server.reload()).toBe(true);
      expect(await readiness(server.url)).toMatchObject({ status: 200, body: { ready: true, error: null } });
    } finally {
      await server.close();
    }
  });
});
