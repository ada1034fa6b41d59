import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempDir, writeFile } from "../helpers/fixtures.js";
import { FIXTURE_CASES, writeEvalSet, writeTriggerEvals } from "./eval-fixture.js";

const json = (stdout: string) => JSON.parse(stdout) as Record<string, any>;

// One eval set, its eval cache and an index of its skills serve the whole file (tempDir() is emptied after each test).
let dir = "";
let file = "";
let cache = "";
let db = "";

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "skill-router-eval-"));
  file = writeEvalSet(dir);
  cache = path.join(dir, "cache");
  db = path.join(dir, "router.db");
  expect(runCli(["index", file, "--db", db, "-q"]).status).toBe(0);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("router eval", () => {
  it("indexes an eval set's own skills once, then reports every metric", () => {
    const first = runCli(["eval", file, "--cache", cache, "--split", "all", "--json"]);
    expect(first.status, first.stderr).toBe(0);
    const report = json(first.stdout);
    expect(report["format"]).toBe("eval-set");
    expect(report["indexed"]["embedded"]).toBe(6);
    expect(report["db"].startsWith(cache)).toBe(true);
    const metrics = report["metrics"];
    expect([metrics.cases, metrics.in_scope, metrics.no_skill]).toEqual([FIXTURE_CASES.length, 18, 6]);
    expect(metrics.top1).toBeGreaterThan(0.8);
    for (const key of ["recall_at_3", "mrr", "routed", "correct_inject", "abstain_precision", "abstain_recall", "false_trigger", "ece"]) expect(metrics[key], key).toBeGreaterThanOrEqual(0);
    expect(metrics.latency_ms.p50).toBeGreaterThan(0);

    const again = json(runCli(["eval", file, "--cache", cache, "--split", "all", "--json"]).stdout);
    expect(again["indexed"]["embedded"]).toBe(0);
    expect(again["metrics"]["top1"]).toBe(metrics.top1);
  });

  it("reads the test split by default and prints a report a person can read", () => {
    const result = runCli(["eval", file, "--cache", cache, "--failures", "-q"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\(eval set, test split\): \d+ cases/);
    expect(result.stdout).toContain("top-1");
    expect(result.stdout).toContain("abstention");
    expect(result.stdout).toContain("p50");
    expect(result.stdout).toMatch(/failures/);
    expect(result.stderr).toBe("");
  });

  it("exits 5 when a gate is not met, 0 when all are", () => {
    const failed = runCli(["eval", file, "--cache", cache, "--split", "all", "--min-accuracy", "0.5", "--max-p95-ms", "0.001", "-q"]);
    expect(failed.status).toBe(5);
    expect(failed.stdout).toContain("pass  --min-accuracy 0.5");
    expect(failed.stdout).toContain("FAIL  --max-p95-ms 0.001");
    const passed = runCli(["eval", file, "--cache", cache, "--split", "all", "--min-accuracy", "0.5", "--max-false-trigger", "0.9", "--json"]);
    expect(passed.status).toBe(0);
    expect(json(passed.stdout)["gates"].map((gate: { passed: boolean }) => gate.passed)).toEqual([true, true]);
  });

  it("lists failures with their evidence", () => {
    const hard = writeFile(
      path.join(tempDir(), "hard.json"),
      JSON.stringify({
        skills: [
          { name: "weather", description: "Weather forecasts for a city." },
          { name: "currency", description: "Convert between currencies." },
        ],
        cases: [
          { query: "weather in Rome", expected: "currency" },
          { query: "tell me a joke", expected: null },
        ],
      }),
    );
    const result = runCli(["eval", hard, "--cache", cache, "--split", "all", "--failures", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const [failure] = json(result.stdout)["failures"];
    expect(failure.query).toBe("weather in Rome");
    expect(["wrong_skill", "missed"]).toContain(failure.kind);
    expect(failure.candidates[0].name).toBe("weather");
    expect(failure.candidates[0].signals).toHaveProperty("q2q_max");
    expect(failure.candidates[0]).toHaveProperty("nearest_query");
  });

  it("says which figure fell short of the evidence floor for a case missed for want of evidence", () => {
    const examples = path.join(tempDir(), "examples.db");
    expect(runCli(["index", "data/skills", "--db", examples]).status).toBe(0);
    const answer = json(runCli(["eval", "data/eval/examples.json", "--db", examples, "--split", "all", "--failures", "--json"]).stdout);
    const starved = answer["failures"].filter((failure: { reason: string | null }) => failure.reason === "no_evidence");
    expect(starved.length).toBeGreaterThan(0);
    const [first] = starved;
    const printed = runCli(["eval", "data/eval/examples.json", "--db", examples, "--split", "all", "--failures"]).stdout;
    const best = first.candidates[0];
    expect(printed).toContain(
      `none (no evidence: BM25 ${best.signals.bm25.toFixed(2)} for ${best.name}, under the ${first.evidenceFloor.bm25.toFixed(2)} that requests no skill fits reach on this index)`,
    );
  });

  it("scores a skill-creator trigger-eval file from one skill's point of view", () => {
    const triggers = writeTriggerEvals(tempDir());
    const result = runCli(["eval", triggers, "--skill", "pdf-extract", "--db", db, "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const report = json(result.stdout);
    expect([report["format"], report["skill"], report["split"]]).toEqual(["trigger-eval", "pdf-extract", "all"]);
    expect([report["metrics"]["in_scope"], report["metrics"]["no_skill"]]).toEqual([3, 3]);
    // Should-not requests that other skills took are right for pdf-extract, and counted apart.
    expect(report["routedElsewhere"]).toBeGreaterThanOrEqual(1);
    expect(report["metrics"]["abstain_recall"]).toBe(1);
    expect(report["metrics"]["false_trigger"]).toBe(0);
    const text = runCli(["eval", triggers, "--skill", "pdf-extract", "--db", db]).stdout;
    expect(text).toContain("trigger evals for pdf-extract");
    expect(text).toContain("decided right");
    expect(text).toContain(`${report["routedElsewhere"]} of them went to other skills`);
  });

  it("explains bad input with a code and a usage exit status", () => {
    const scratch = tempDir();
    const triggers = writeTriggerEvals(scratch);
    const noSkill = runCli(["eval", triggers, "--db", db]);
    expect(noSkill.status).toBe(2);
    expect(noSkill.stderr).toContain("--skill <name>");
    const unknown = runCli(["eval", triggers, "--skill", "no-such-skill", "--db", db]);
    expect(unknown.stderr).toContain("error [UNKNOWN_SKILLS]: Not in the index: no-such-skill");
    expect(unknown.status).not.toBe(0);
    expect(runCli(["eval", path.join(scratch, "missing.json")]).stderr).toContain("error [INVALID_ARGUMENT]: Cannot read eval file");
    const notEval = runCli(["eval", writeFile(path.join(scratch, "x.json"), JSON.stringify({ cases: [{ query: 1 }] }))]);
    expect([notEval.status, notEval.stderr]).toEqual([2, expect.stringContaining("is not an eval set: cases.0.query")]);
    expect(runCli(["eval", triggers, "--split", "half"]).status).toBe(2);
    expect(runCli(["eval", triggers, "--min-accuracy", "1.5"]).status).toBe(2);
    const help = runCli(["eval", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("should_trigger");
    expect(help.stdout).toContain("--max-false-trigger");
  });
});
