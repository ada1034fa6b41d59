import { renameSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { openIndexForWrite } from "../../src/store/database.js";
import { tempDir, writeAgentSkill } from "../helpers/fixtures.js";
import { waitUntil } from "../helpers/wait.js";
import { runCliAsync } from "../models/run-cli-async.js";
import { routeUnderLoad } from "./support.js";

/** Three skills whose bodies name the release they belong to, so an answer can be checked against its index version. */
function writeRelease(root: string, release: number): void {
  writeAgentSkill(root, "k8s-debug", {
    description: "Debug failing Kubernetes pods: CrashLoopBackOff, OOMKilled. Use when a pod keeps restarting.",
    body: `# Kubernetes debugging (release-${release})\n\nRun kubectl describe pod.\n`,
  });
  writeAgentSkill(root, "git-commit-messages", { description: "Write commit messages from a staged git diff.", body: `# Commits (release-${release})\n` });
  writeAgentSkill(root, "pdf-extract", { description: "Extract text and tables from PDF files.", body: `# PDF (release-${release})\n` });
  if (release > 1) writeAgentSkill(root, "sql-query-review", { description: "Speed up slow SQL queries with EXPLAIN ANALYZE.", body: `# SQL (release-${release})\n` });
}

/** Release 1 indexed and served, polling off: the test decides when the server looks for a new version. */
async function serveRelease1(): Promise<{ root: string; db: string; server: RunningServer }> {
  const root = tempDir();
  const db = path.join(tempDir(), "router.db");
  writeRelease(root, 1);
  await runIndex({ paths: [root], db });
  const server = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 0 });
  await server.ready;
  return { root, db, server };
}

describe("hot reload", () => {
  it("swaps in a new index written by `router index` while serving under load: zero failed requests, no torn reads", async () => {
    const root = tempDir();
    const db = path.join(tempDir(), "router.db");
    writeRelease(root, 1);
    await runIndex({ paths: [root], db });
    // A slow poll leaves a wide window between the commit and the swap: reads in it must still come from one version.
    const server = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 1000 });
    try {
      await server.ready;
      let loading = true;
      const load = routeUnderLoad(
        server.url,
        (n) => ({ query: n % 2 ? "my pod keeps restarting" : "write a commit message for my staged diff", k: 3, include: ["body"] }),
        4,
        () => loading,
        20,
      );

      writeRelease(root, 2);
      const indexed = await runCliAsync(["index", root, "--db", db, "-q"]);
      expect(indexed.status, indexed.stderr).toBe(0);
      await waitUntil(() => server.slot.router!.status().indexVersion >= 2, "index v2 swapped in");
      await new Promise((resolve) => setTimeout(resolve, 300));
      loading = false;
      const tally = await load;

      expect(tally.failures).toEqual([]);
      const versions = new Set(tally.answers.map((answer) => answer.index_version));
      expect([...versions].sort()).toEqual([1, 2]);
      for (const answer of tally.answers) {
        for (const skill of answer.skills) expect(skill.body, `index v${answer.index_version}, ${skill.name}`).toContain(`release-${answer.index_version}`);
      }
      const skills = (await (await fetch(`${server.url}/skills`)).json()) as { name: string }[];
      expect(skills.map((skill) => skill.name)).toContain("sql-query-review");
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toMatch(/^router_index_reloads_total\{outcome="success"\} 1$/m);
      expect(metrics).toMatch(/^router_index_version 2$/m);
    } finally {
      await server.close();
    }
  });

  it("picks up an index file replaced by a rename (how a deploy swaps in a file built elsewhere)", async () => {
    const { root, db, server } = await serveRelease1();
    try {
      const elsewhere = path.join(tempDir(), "built-in-ci.db");
      writeRelease(root, 2);
      await runIndex({ paths: [root], db: elsewhere });
      renameSync(elsewhere, db);
      expect(await server.reload()).toBe(true);
      const skills = (await (await fetch(`${server.url}/skills`)).json()) as { name: string }[];
      expect(skills.map((skill) => skill.name)).toContain("sql-query-review");
    } finally {
      await server.close();
    }
  });

  it("keeps serving the previous version when the new one cannot be used, and says why", async () => {
    const { db, server } = await serveRelease1();
    try {
      // The next version claims another embedder: queries could not be compared with its vectors.
      const writer = openIndexForWrite(db);
      writer.prepare("UPDATE meta SET value = 'another-embedder' WHERE key = 'embedder'").run();
      writer.prepare("UPDATE meta SET value = '2' WHERE key = 'index_version'").run();
      writer.close();
      expect(await server.reload()).toBe(false);
      const reply = await fetch(`${server.url}/route`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "my pod keeps restarting" }) });
      expect(reply.status).toBe(200);
      expect(((await reply.json()) as { index_version: number }).index_version).toBe(1);
      expect(await (await fetch(`${server.url}/metrics`)).text()).toMatch(/^router_index_reloads_total\{outcome="failure"\} 1$/m);
    } finally {
      await server.close();
    }
  });
});
