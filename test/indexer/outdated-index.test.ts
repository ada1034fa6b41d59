import { rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempDir, writeAgentSkill } from "../helpers/fixtures.js";

describe("an index older than the vectors-as-rows schema (5)", () => {
  it("is INDEX_OUTDATED for reading and writing, with the command that builds it again; rebuilt, it serves", () => {
    const root = path.join(tempDir(), "my skills");
    writeAgentSkill(root, "k8s-debug", { description: "Debug failing Kubernetes pods: CrashLoopBackOff, OOMKilled. Use when a pod keeps restarting." });
    const db = path.join(tempDir(), "router.db");
    // What schema 4 recorded of its roots; its vectors were in a sqlite-vec table this release cannot read.
    const old = new Database(db);
    old.exec("CREATE TABLE roots (position INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, folder TEXT NOT NULL DEFAULT '') STRICT");
    old.prepare("INSERT INTO roots (position, path, folder) VALUES (0, ?, ?)").run(root, root);
    old.pragma("user_version = 4");
    old.close();

    for (const args of [
      ["route", "my pod keeps restarting", "--db", db],
      ["index", root, "--db", db],
    ]) {
      const cli = runCli(args);
      expect(cli.status).toBe(1);
      expect(cli.stderr).toContain(`error [INDEX_OUTDATED]: ${db} has schema version 4, from before vectors were stored as rows`);
      expect(cli.stderr).toContain(`Delete it and build it again: \`router index '${root}' --db ${db}\``);
    }

    rmSync(db);
    expect(runCli(["index", root, "--db", db, "--quiet"]).status).toBe(0);
    expect(runCli(["route", "my pod keeps restarting", "--db", db]).stdout).toMatch(/^-> k8s-debug /);
  });
});
