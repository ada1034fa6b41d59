import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { startServer } from "../../src/server/serve.js";
import { CLI, type CliResult, runCli } from "../helpers/cli.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";

// Root writes anywhere; as root, read-only files and folders are tested as an unprivileged user (nobody).
const asUser = process.getuid?.() === 0 ? { uid: 65534 } : {};
const STACK_LINE = /^\s+at /m;

/** The CLI's one-line answer to a fault: the code, no stack trace. */
function expectClean(result: CliResult, code: string, exit: number): void {
  expect(result.stderr).toMatch(new RegExp(`^error \\[${code}\\]: `, "m"));
  expect(result.stderr).not.toMatch(STACK_LINE);
  expect(result.status).toBe(exit);
}

describe("every CLI command on a faulty index file answers with a code, never a stack trace", () => {
  let skills: string;
  let evalFile: string;
  let good: string;

  // One index for every test: tempDir() folders go after each test.
  const shared = mkdtempSync(path.join(tmpdir(), "skill-router-db-faults-"));
  afterAll(() => rmSync(shared, { recursive: true, force: true }));

  beforeAll(async () => {
    chmodSync(shared, 0o755);
    skills = path.join(shared, "skills");
    writeAgentSkill(skills, "k8s-debug", { description: "Debug failing Kubernetes pods: CrashLoopBackOff, OOMKilled. Use when a pod keeps restarting." });
    writeAgentSkill(skills, "pdf-extract", { description: "Extract text and tables from PDF files." });
    evalFile = writeFile(path.join(shared, "eval.json"), JSON.stringify({ cases: [{ query: "my pod keeps restarting", expected: "k8s-debug" }] }));
    good = path.join(shared, "good", "router.db");
    await runIndex({ paths: [skills], db: good });
    chmodSync(path.join(shared, "good"), 0o755);
  });

  /** A copy of the good index in a folder of its own, world-readable, for a fault to be made on. */
  function copyOfIndex(): { folder: string; db: string } {
    const folder = tempDir();
    chmodSync(folder, 0o777);
    const db = path.join(folder, "router.db");
    copyFileSync(good, db);
    return { folder, db };
  }

  const readers = (db: string): string[][] => [
    ["skills", "--db", db],
    ["show", "k8s-debug", "--db", db],
    ["route", "my pod keeps restarting", "--db", db],
    ["eval", evalFile, "--split", "all", "--db", db],
  ];
  const writers = (db: string): string[][] => [
    ["index", skills, "--db", db, "-q"],
    ["fit", evalFile, "--db", db],
  ];

  it("a folder where the index file should be: INDEX_NOT_A_FILE, a usage error, from readers and writers", () => {
    const folder = tempDir();
    for (const args of [...readers(folder), ...writers(folder), ["manifests", "export", path.join(tempDir(), "out"), "--db", folder]]) expectClean(runCli(args), "INDEX_NOT_A_FILE", 2);
  });

  it("a read-only index file: INDEX_READ_ONLY from the commands that write it, even when nothing changed; readers still read it", async () => {
    const { db } = copyOfIndex();
    chmodSync(db, 0o444);
    for (const args of writers(db)) expectClean(runCli(args, asUser), "INDEX_READ_ONLY", 1);
    const listed = runCli(["skills", "--db", db, "--json"], asUser);
    expect(listed.status, listed.stderr).toBe(0);
  });

  it("a read-only folder: INDEX_READ_ONLY from the commands that write it, also for a new file; readers still read it", () => {
    const { folder, db } = copyOfIndex();
    chmodSync(folder, 0o555);
    try {
      for (const args of [...writers(db), ["index", skills, "--db", path.join(folder, "new.db"), "-q"]]) expectClean(runCli(args, asUser), "INDEX_READ_ONLY", 1);
      const routed = runCli(["route", "my pod keeps restarting", "--db", db], asUser);
      expect(routed.status, routed.stderr).toBe(0);
    } finally {
      chmodSync(folder, 0o755);
    }
  });

  it("a folder the index cannot be created in: INDEX_READ_ONLY", () => {
    const parent = tempDir();
    chmodSync(parent, 0o555);
    try {
      expectClean(runCli(["index", skills, "--db", path.join(parent, "deeper", "router.db"), "-q"], asUser), "INDEX_READ_ONLY", 1);
    } finally {
      chmodSync(parent, 0o755);
    }
  });

  it("an index file nobody may read: INDEX_IO_ERROR from readers", () => {
    const { db } = copyOfIndex();
    chmodSync(db, 0o000);
    for (const args of readers(db).slice(0, 2)) expectClean(runCli(args, asUser), "INDEX_IO_ERROR", 1);
  });

  it("an index another process is writing: a second `router index` or `router fit` says it waits, then INDEX_LOCKED", () => {
    const { db } = copyOfIndex();
    const writer = new Database(db);
    writer.exec("BEGIN IMMEDIATE");
    try {
      for (const args of writers(db)) {
        const result = runCli(args);
        expectClean(result, "INDEX_LOCKED", 1);
        expect(result.stderr).toMatch(/^waiting up to 5 s for the index lock on .*router\.db, held by another writer/m);
      }
    } finally {
      writer.exec("ROLLBACK");
      writer.close();
    }
    // Once the other writer is done, the same run goes through.
    expect(runCli(writers(db)[0]!).status).toBe(0);
  });

  it("`router feedback add` on an index another process is writing says at once what it waits for, and stores once the writer is done", async () => {
    const { db } = copyOfIndex();
    const writer = new Database(db);
    writer.exec("BEGIN IMMEDIATE");
    const child = spawn(process.execPath, [CLI, "feedback", "add", "my pod keeps restarting", "--skill", "k8s-debug", "--db", db], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const waiting = new Promise<void>((resolve) =>
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("waiting up to 30 s for the index lock")) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      // Said while the lock is still held: the command is waiting, not finished.
      await Promise.race([waiting, exited]);
      expect(stderr).toMatch(/^waiting up to 30 s for the index lock on .*router\.db, held by another writer/m);
      expect(child.exitCode).toBeNull();
    } finally {
      writer.exec("ROLLBACK");
      writer.close();
    }
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/^stored #1: /m);
  });

  it("POST /feedback on an index another process is writing: 503 INDEX_LOCKED with Retry-After before the request's deadline, never REQUEST_TIMEOUT", async () => {
    const { db } = copyOfIndex();
    // The built CLI applies the feedback (from src, the installed one would be a .ts file).
    const server = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 0, requestTimeoutMs: 1500, cli: CLI });
    const writer = new Database(db);
    const send = () =>
      fetch(`${server.url}/feedback`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "my pod keeps restarting", skill: "k8s-debug" }) });
    try {
      await server.ready;
      writer.exec("BEGIN IMMEDIATE");
      const locked = await send();
      expect(locked.status).toBe(503);
      expect(locked.headers.get("retry-after")).toBe("2");
      expect(((await locked.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "INDEX_LOCKED", message: expect.stringContaining("try again") });
      writer.exec("ROLLBACK");
      expect((await send()).status).toBe(201);
    } finally {
      if (writer.inTransaction) writer.exec("ROLLBACK");
      writer.close();
      await server.close();
    }
  });

  it("a file-system fault outside the index (an output folder that cannot be made): FILE_ACCESS_FAILED, no stack", () => {
    const { db } = copyOfIndex();
    const parent = tempDir();
    chmodSync(parent, 0o555);
    try {
      expectClean(runCli(["manifests", "export", path.join(parent, "out"), "--db", db], asUser), "FILE_ACCESS_FAILED", 1);
    } finally {
      chmodSync(parent, 0o755);
    }
  });
});
