import { spawn } from "node:child_process";
import { openSync, readFileSync, statSync, truncateSync, writeSync, closeSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { startServer } from "../../src/server/serve.js";
import { openIndexForRead } from "../../src/store/database.js";
import { readManifests } from "../../src/store/manifest-rows.js";
import { listSkills } from "../../src/store/skill-rows.js";
import { goodManifestFor, startChatServer, type ChatServer } from "../expand/chat-server.js";
import { CLI, runCli } from "../helpers/cli.js";
import { runCliAsync } from "../models/run-cli-async.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";
import { routeUnderLoad } from "../server/support.js";

async function indexedSkillSet(): Promise<{ root: string; db: string }> {
  const root = tempDir();
  writeAgentSkill(root, "k8s-debug", { description: "Debug failing Kubernetes pods: CrashLoopBackOff, OOMKilled. Use when a pod keeps restarting." });
  writeAgentSkill(root, "pdf-extract", { description: "Extract text and tables from PDF files." });
  const db = path.join(tempDir(), "router.db");
  await runIndex({ paths: [root], db });
  return { root, db };
}

describe("kill -9 of `router index` while a server serves the index", () => {
  it("leaves the server answering from the previous index, with zero failed requests", async () => {
    const { db } = await indexedSkillSet();
    const big = tempDir();
    // Enough tools that embedding keeps the write transaction open long enough to kill the run inside it.
    writeFile(
      path.join(big, "tools.json"),
      JSON.stringify(Array.from({ length: 600 }, (_, n) => ({ name: `tool_${n}`, description: `Tool ${n} ${"does useful work ".repeat(30)}`, parameters: { type: "object" } }))),
    );
    const server = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 100 });
    try {
      await server.ready;
      let loading = true;
      const load = routeUnderLoad(
        server.url,
        () => ({ query: "my pod keeps restarting", include: ["body"] }),
        3,
        () => loading,
        10,
      );

      const child = spawn(process.execPath, [CLI, "index", big, "--db", db], { stdio: ["ignore", "ignore", "pipe"] });
      const killed = await new Promise<boolean>((resolve) => {
        child.stderr.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("embedding") && child.exitCode === null) resolve(child.kill("SIGKILL"));
        });
        child.on("exit", () => resolve(false));
      });
      expect(killed).toBe(true);
      // Several polls after the kill: the half-written WAL must not be taken for a new version.
      await new Promise((resolve) => setTimeout(resolve, 600));
      loading = false;
      const tally = await load;

      expect(tally.failures).toEqual([]);
      expect(tally.answers.length).toBeGreaterThan(0);
      expect(new Set(tally.answers.map((answer) => answer.index_version))).toEqual(new Set([1]));
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const skills = (await (await fetch(`${server.url}/skills`)).json()) as { name: string }[];
      expect(skills.map((skill) => skill.name)).toEqual(["k8s-debug", "pdf-extract"]);
    } finally {
      await server.close();
    }
  });
});

describe("a damaged index file", () => {
  function damaged(kind: "truncated" | "overwritten" | "not sqlite", db: string): string {
    const copy = path.join(tempDir(), `${kind.replace(" ", "-")}.db`);
    writeFile(copy, readFileSync(db));
    const size = statSync(copy).size;
    if (kind === "truncated") truncateSync(copy, Math.floor(size / 2));
    if (kind === "overwritten") {
      const fd = openSync(copy, "r+");
      writeSync(fd, Buffer.alloc(size - 8192, 0xa5), 0, size - 8192, 8192);
      closeSync(fd);
    }
    if (kind === "not sqlite") writeFile(copy, "this is not a database\n".repeat(200));
    return copy;
  }

  it.each(["truncated", "overwritten", "not sqlite"] as const)("%s: the CLI says INDEX_CORRUPT and exits 1; the server stays alive but not ready and says why", async (kind) => {
    const { db } = await indexedSkillSet();
    const broken = damaged(kind, db);
    const cli = runCli(["route", "my pod keeps restarting", "--db", broken]);
    expect(cli.status).toBe(1);
    expect(cli.stderr).toMatch(/^error \[INDEX_CORRUPT\]: .*damaged or not a SQLite file/m);

    const server = await startServer({ db: broken, host: "127.0.0.1", port: 0 });
    try {
      await server.ready;
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "INDEX_CORRUPT", message: expect.stringContaining("router index") });
    } finally {
      await server.close();
    }
  });
});

describe("the LLM endpoint goes down between index runs", () => {
  let chat: ChatServer | undefined;
  afterEach(async () => {
    await chat?.close();
    chat = undefined;
  });

  it("falls back to the heuristic for what needs a manifest, and keeps every manifest already made", async () => {
    chat = await startChatServer((request) => ({ content: goodManifestFor(request) }));
    const llm = { ROUTER_LLM_MODEL: "scripted-model", OPENAI_BASE_URL: chat.url, OPENAI_API_KEY: "test" };
    const root = tempDir();
    const db = path.join(tempDir(), "router.db");
    writeAgentSkill(root, "alpha-logs");
    writeAgentSkill(root, "beta-logs");
    const first = await runCliAsync(["index", root, "--db", db, "-q"], llm);
    expect(first.status, first.stderr).toBe(0);

    await chat.close();
    chat = undefined;
    writeAgentSkill(root, "gamma-logs");
    writeAgentSkill(root, "beta-logs", { description: "Reads beta logs, now with a changed description." });
    const second = await runCliAsync(["index", root, "--db", db, "-q", "--json"], llm);
    expect(second.status, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ added: ["gamma-logs"], updated: ["beta-logs"] });

    const index = openIndexForRead(db);
    try {
      const manifests = readManifests(index);
      const sources = Object.fromEntries(listSkills(index).map((skill) => [skill.name, manifests.get(skill.id)?.source]));
      expect(sources).toEqual({ "alpha-logs": "llm", "beta-logs": "heuristic", "gamma-logs": "heuristic" });
    } finally {
      index.close();
    }
  });
});
