import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, openSync, readdirSync, readFileSync, statSync, truncateSync, writeSync, closeSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
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

describe("an index damaged inside, where SQLite reads only when a request needs the page", () => {
  /** The byte offset of the first page holding `table`'s rows, as SQLite's dbstat table says. */
  function pageOf(db: string, table: string): number {
    const index = new Database(db, { readonly: true });
    try {
      const pageSize = index.pragma("page_size", { simple: true }) as number;
      const page = index.prepare("SELECT min(pageno) FROM dbstat WHERE name = ?").pluck().get(table) as number;
      return (page - 1) * pageSize;
    } finally {
      index.close();
    }
  }

  /** 20 KB of random bytes from the first page of `table` on: what a disk fault or a stray write leaves. */
  function damageAt(db: string, table: string): void {
    const fd = openSync(db, "r+");
    writeSync(fd, randomBytes(20_000), 0, 20_000, pageOf(db, table));
    closeSync(fd);
  }

  // No poll: the test says when the server looks at the file again (server.reload()).
  type Answer = { status: number; code: string | undefined };
  const answer = async (response: Response): Promise<Answer> => ({ status: response.status, code: ((await response.json()) as { error?: { code: string } }).error?.code });
  const route = async (url: string): Promise<Answer> =>
    answer(await fetch(`${url}/route`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "my pod keeps restarting", include: ["body"] }) }));

  it.each(["skill_vectors", "skills"])(
    "in %s before the server starts: refused at start with INDEX_CORRUPT, said by doctor, moved aside and rebuilt by `router index`, served again without a restart",
    async (table) => {
      const { root, db } = await indexedSkillSet();
      damageAt(db, table);
      const server = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 0 });
      try {
        await server.ready;
        const ready = await fetch(`${server.url}/readyz`);
        expect(ready.status).toBe(503);
        expect(((await ready.json()) as { error: { code: string; message: string } }).error).toMatchObject({
          code: "INDEX_CORRUPT",
          message: expect.stringMatching(/is damaged \(SQLite finds: .*router index/),
        });
        expect(await route(server.url)).toEqual({ status: 503, code: "INDEX_CORRUPT" });
        expect(await answer(await fetch(`${server.url}/skills`))).toEqual({ status: 503, code: "INDEX_CORRUPT" });

        const doctor = runCli(["doctor", "--db", db]);
        expect(doctor.status).toBe(1);
        expect(doctor.stdout).toMatch(/error +\[INDEX_CORRUPT\] .* is damaged/);
        expect(doctor.stdout).toMatch(/^Status: problems$/m);

        const indexed = runCli(["index", root, "--db", db, "-q"]);
        expect(indexed.status, indexed.stderr).toBe(0);
        expect(indexed.stdout).toMatch(/^The index file was damaged \(SQLite finds: .*\): moved aside to .*router\.db\.corrupt-/m);
        expect(indexed.stdout).toMatch(/^ {2}added {6}2$/m);
        const aside = readdirSync(path.dirname(db)).filter((file) => /^router\.db\.corrupt-[\dTZ-]+$/.test(file));
        expect(aside).toHaveLength(1);
        expect(runCli(["doctor", "--db", db]).stdout).not.toMatch(/INDEX_CORRUPT/);

        expect(await server.reload()).toBe(true);
        expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
        expect(await route(server.url)).toEqual({ status: 200, code: undefined });
      } finally {
        await server.close();
      }
    },
  );

  it("while a server serves it: the request that meets it answers 503 INDEX_CORRUPT, never 500; readiness turns false until the file is rebuilt", async () => {
    const { root, db } = await indexedSkillSet();
    const server = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 0 });
    try {
      await server.ready;
      // The vectors are read per request, by candidate: the first route reads the damaged pages.
      damageAt(db, "skill_vectors");
      expect(await route(server.url)).toEqual({ status: 503, code: "INDEX_CORRUPT" });
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { error: { code: string } }).error.code).toBe("INDEX_CORRUPT");
      expect(await route(server.url)).toEqual({ status: 503, code: "INDEX_CORRUPT" });
      // Polls meanwhile do not load the same damaged file again.
      expect(await server.reload()).toBe(false);

      expect(runCli(["index", root, "--db", db, "-q"]).status).toBe(0);
      expect(await server.reload()).toBe(true);
      expect(await route(server.url)).toEqual({ status: 200, code: undefined });
    } finally {
      await server.close();
    }
  });

  it("`router index` leaves a sound index where it is", async () => {
    const { root, db } = await indexedSkillSet();
    const again = runCli(["index", root, "--db", db, "-q"]);
    expect(again.stdout).not.toMatch(/damaged/);
    expect(readdirSync(path.dirname(db)).filter((file) => file.includes("corrupt"))).toEqual([]);
    expect(existsSync(db)).toBe(true);
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
