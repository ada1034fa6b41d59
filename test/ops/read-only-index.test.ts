import { chmodSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { runCli } from "../helpers/cli.js";
import { tempDir, writeAgentSkill } from "../helpers/fixtures.js";

// Root writes anywhere; as root, the read-only folder is tested as an unprivileged user (nobody), as a container runs it.
const asUser = process.getuid?.() === 0 ? { uid: 65534 } : {};

describe("an index on a read-only mount", () => {
  it("is served without writing anything next to it (WAL mode would need a -shm file there)", async () => {
    const root = tempDir();
    writeAgentSkill(root, "k8s-debug", { description: "Debug failing Kubernetes pods: CrashLoopBackOff, OOMKilled. Use when a pod keeps restarting." });
    writeAgentSkill(root, "pdf-extract", { description: "Extract text and tables from PDF files." });
    const parent = tempDir();
    const mount = path.join(parent, "mount");
    const db = path.join(mount, "router.db");
    await runIndex({ paths: [root], db });
    expect(readdirSync(mount)).toEqual(["router.db"]);
    chmodSync(db, 0o444);
    chmodSync(mount, 0o555);
    chmodSync(parent, 0o755);
    try {
      const routed = runCli(["route", "my pod keeps restarting", "--db", db, "--json"], { ...asUser, env: { HOME: parent } });
      expect(routed.status, routed.stderr).toBe(0);
      expect(JSON.parse(routed.stdout)).toMatchObject({ selected: ["k8s-debug"], index_version: 1 });
      const listed = runCli(["skills", "--db", db, "--json"], asUser);
      expect(listed.status, listed.stderr).toBe(0);
      expect(readdirSync(mount)).toEqual(["router.db"]);
    } finally {
      chmodSync(mount, 0o755);
    }
  });
});
