import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RouteResult } from "../../src/contract/route.js";
import { runCli } from "../helpers/cli.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";

const COMMANDS = ["index", "skills", "show", "route", "fit", "eval", "serve", "expand", "manifests", "models", "doctor", "hook", "mcp"];

describe("router CLI", () => {
  it("has --help on every command", () => {
    const top = runCli(["--help"]);
    expect(top.status).toBe(0);
    for (const command of COMMANDS) {
      expect(top.stdout).toContain(command);
      const help = runCli([command, "--help"]);
      expect(help.status, command).toBe(0);
      expect(help.stdout).toContain(`Usage: router ${command}`);
    }
  });

  it("exits 2 with a clear message on a missing or empty path", () => {
    const db = path.join(tempDir(), "r.db");
    const none = runCli(["index", "--db", db]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain("missing required argument 'path'");
    const missing = runCli(["index", "/does/not/exist", "--db", db]);
    expect([missing.status, missing.stderr.trim()]).toEqual([2, "error [PATH_NOT_FOUND]: Path does not exist: /does/not/exist"]);
    const empty = runCli(["index", "", "--db", db]);
    expect([empty.status, empty.stderr.trim()]).toEqual([2, "error [PATHS_MISSING]: An empty path was given"]);
    const emptyFolder = runCli(["index", tempDir(), "--db", db]);
    expect(emptyFolder.status).toBe(2);
    expect(emptyFolder.stderr).toContain("error [NO_SKILLS_FOUND]");
    expect(runCli(["index", "x", "--bogus"]).status).toBe(2);
  });

  it("indexes, lists, and shows exactly what would be injected", () => {
    const root = tempDir();
    const db = path.join(tempDir(), "r.db");
    writeAgentSkill(root, "k8s-debug", { description: "Debug crashing Kubernetes pods", body: "# K8s\n\nRun kubectl describe pod.\n", files: { "scripts/logs.sh": "kubectl logs" } });
    // Corrupt, not merely off-spec (a display name would be indexed under a slug, with a warning).
    writeFile(path.join(root, "bad", "SKILL.md"), '---\nname: bad\ndescription: "  "\n---\n');

    const indexed = runCli(["index", root, "--db", db]);
    expect(indexed.status).toBe(0);
    expect(indexed.stdout).toMatch(/^Indexed 1 skills into .* \(index version 1\)/);
    expect(indexed.stdout).toContain("  added      1\n");
    expect(indexed.stdout).toContain(`${path.join(root, "bad", "SKILL.md")}: 'description' is empty`);
    expect(runCli(["index", root, "--db", db, "--strict"]).status).toBe(4);

    const json = JSON.parse(runCli(["index", root, "--db", db, "--json"]).stdout);
    expect([json.unchanged, json.invalid.length]).toEqual([1, 1]);

    const listed = JSON.parse(runCli(["skills", "--json", "--db", db]).stdout);
    expect(listed).toEqual([expect.objectContaining({ name: "k8s-debug", kind: "skill", format: "agent-skill", description: "Debug crashing Kubernetes pods" })]);

    const shown = runCli(["show", "k8s-debug", "--db", db]);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toBe(`# K8s\n\nRun kubectl describe pod.\n\nSupporting files (relative to ${path.join(root, "k8s-debug")}):\n- scripts/logs.sh\n`);
    const unknown = runCli(["show", "nope", "--db", db]);
    expect([unknown.status, unknown.stderr]).toEqual([3, expect.stringContaining("error [SKILL_NOT_FOUND]")]);
    expect(runCli(["route", "   ", "--db", db]).status).toBe(2);
    // The route contract's bounds are the CLI's: a usage error naming the bound, before any index is opened.
    const tooMany = runCli(["route", "debug my pod", "-k", "21", "--db", db]);
    expect([tooMany.status, tooMany.stderr]).toEqual([2, expect.stringContaining("must be an integer from 1 to 20")]);
    const context = ["--context", "a", "--context", "b", "--context", "c", "--context", "d"];
    expect(runCli(["route", "debug my pod", ...context, "--db", db]).stderr).toContain("at most 3 context messages");
    expect(runCli(["route", "debug my pod", "--skills", "ghost", "--db", db]).stderr).toContain("error [UNKNOWN_SKILLS]: Not in the index: ghost");
  });

  it("names each matched term once, though a quoted word is both a keyword and a phrase", () => {
    const root = tempDir();
    const db = path.join(tempDir(), "r.db");
    writeAgentSkill(root, "pydeseq2", { description: 'Differential expression of RNA-seq counts in Python. Use when users mention "DESeq2".', body: "# PyDESeq2\n" });
    expect(runCli(["index", root, "--db", db]).status).toBe(0);
    const routed = runCli(["route", "volcano plot of my DESeq2 results", "--db", db]);
    const json = JSON.parse(runCli(["route", "volcano plot of my DESeq2 results", "--db", db, "--json"]).stdout);
    expect(json.skills[0].matched).toEqual({ keywords: ["deseq2"], phrases: ["deseq2"] });
    expect(routed.stdout).toContain("matched: deseq2  like:");
  });

  it("says which figure fell short of the index's evidence floor when it abstains for want of evidence", () => {
    const db = path.join(tempDir(), "r.db");
    expect(runCli(["index", "data/skills", "--db", db]).status).toBe(0);
    for (const [query, figure] of [
      // no word in common: the nearest query's similarity against the dense floor
      [
        "what is the capital of France?",
        (answer: RouteResult) =>
          `no word of it matches ${answer.skills[0]!.name}, whose nearest query is at similarity ${answer.skills[0]!.signals.q2q_max.toFixed(2)}, under the ${answer.evidence_floor!.q2q_max.toFixed(2)}`,
      ],
      // a common word: BM25 against the lexical floor
      ["test my patience", (answer: RouteResult) => `BM25 ${answer.skills[0]!.signals.bm25.toFixed(2)} for ${answer.skills[0]!.name}, under the ${answer.evidence_floor!.bm25.toFixed(2)}`],
    ] as const) {
      const answer = JSON.parse(runCli(["route", query, "--db", db, "--json"]).stdout) as RouteResult;
      expect(answer.reason).toBe("no_evidence");
      expect(runCli(["route", query, "--db", db]).stdout).toContain(`-> none (no evidence: ${figure(answer)} that requests no skill fits reach on this index)`);
    }
  });

  it("routes nothing on one shared everyday word: 'write a poem' is no request for the commit-message skill", () => {
    const db = path.join(tempDir(), "r.db");
    expect(runCli(["index", "data/skills", "--db", db]).status).toBe(0);
    const answer = JSON.parse(runCli(["route", "write a poem about the sea", "--db", db, "--json"]).stdout) as RouteResult;
    expect([answer.decision, answer.skills[0]!.name, answer.skills[0]!.matched]).toEqual(["none", "git-commit-messages", { keywords: ["write"], phrases: [] }]);
  });

  it("says when the message called the injected skill by name", () => {
    const root = tempDir();
    const db = path.join(tempDir(), "r.db");
    writeAgentSkill(root, "savepoint", { description: "Save the session's state for a fresh agent to continue. Use when the context is nearly full.", body: "# Savepoint\n" });
    writeAgentSkill(root, "release-notes", { description: "Draft release notes from merged pull requests. Use when preparing a release.", body: "# Release notes\n" });
    expect(runCli(["index", root, "--db", db]).status).toBe(0);
    expect(runCli(["route", "/savepoint what is the capital of France?", "--db", db]).stdout).toMatch(/^-> savepoint \d\.\d\d .*\+\d+ tokens {2}\(called by name\)\n/);
  });

  it("explains a missing or damaged index", () => {
    const dir = tempDir();
    const missing = runCli(["skills", "--db", path.join(dir, "none.db")]);
    expect([missing.status, missing.stderr]).toEqual([3, expect.stringContaining("error [INDEX_NOT_FOUND]")]);
    const garbage = path.join(dir, "garbage.db");
    writeFileSync(garbage, "this is not sqlite at all, just text ".repeat(200));
    const corrupt = runCli(["skills", "--db", garbage]);
    expect([corrupt.status, corrupt.stderr]).toEqual([1, expect.stringContaining("error [INDEX_CORRUPT]")]);
  });

  it.runIf(process.getuid?.() === 0)("reports an unreadable folder as an unprivileged user, and indexes the rest", () => {
    const root = tempDir();
    chmodSync(root, 0o755);
    writeAgentSkill(root, "readable");
    writeAgentSkill(path.join(root, "locked"), "inner");
    chmodSync(path.join(root, "locked"), 0o000);
    const out = tempDir();
    chmodSync(out, 0o777);
    const result = runCli(["index", root, "--db", path.join(out, "r.db")], { uid: 65534, env: { HOME: out } });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${path.join(root, "locked")}: cannot read folder (EACCES)`);
    expect(result.stdout).toContain("  added      1\n");
  });
});
