import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEvalSet } from "../../src/eval/eval-set.js";
import { splitCases } from "../../src/eval/split.js";
import { runCli } from "../helpers/cli.js";

// The eval set shipped for the example skills: what a fresh clone runs `router eval` and `router fit` on.
const EXAMPLES = "data/eval/examples.json";
const set = readEvalSet(EXAMPLES);
const { train, test } = splitCases(set.cases);
let dir = "";
let db = "";

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "skill-router-examples-"));
  db = path.join(dir, "router.db");
  const indexed = runCli(["index", "data/skills", "--db", db]);
  expect(indexed.status, indexed.stderr).toBe(0);
  // Off a terminal, each stage says once what it counted: files are read, skills are written and embedded.
  expect(indexed.stderr).toMatch(/^reading 11\/11 files \(100%\) in \d+\.\d s$/m);
  expect(indexed.stderr).toMatch(/^writing manifests 12\/12 skills \(100%\) in \d+\.\d s$/m);
  expect(indexed.stderr).not.toMatch(/ 0\/\d+ /);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("data/eval/examples.json", () => {
  it("labels every example skill and some requests that need none, in words of its own", () => {
    const skillTexts = readdirSync("data/skills", { recursive: true, encoding: "utf8" })
      .filter((file) => /\.(md|json|yaml)$/.test(file))
      .map((file) => readFileSync(path.join("data/skills", file), "utf8").toLowerCase());
    expect(set.cases.length).toBeGreaterThanOrEqual(40);
    expect(set.cases.length).toBeLessThanOrEqual(80);
    expect(new Set(set.cases.map((item) => item.expected))).toEqual(
      new Set([
        null,
        "api-design-review",
        "docker-image-optimize",
        "git-commit-messages",
        "incident-postmortem",
        "k8s-debug",
        "pdf-extract",
        "python-testing",
        "regex-helper",
        "release-notes",
        "sql-query-review",
        "get_current_weather",
        "get_weather_forecast",
      ]),
    );
    expect(set.cases.filter((item) => item.expected === null).length).toBeGreaterThanOrEqual(10);
    expect(new Set(set.cases.map((item) => item.query)).size).toBe(set.cases.length);
    for (const item of set.cases)
      expect(
        skillTexts.some((text) => text.includes(item.query.toLowerCase())),
        item.query,
      ).toBe(false);
  });

  it("router eval measures the index of data/skills on the held-out half", () => {
    const result = runCli(["eval", EXAMPLES, "--db", db, "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect([report.split, report.db, report.indexed]).toEqual(["test", db, null]);
    const metrics = report.metrics;
    expect([metrics.cases, metrics.in_scope + metrics.no_skill]).toEqual([test.length, test.length]);
    // The shipped defaults rank these requests well; abstention is the harder half.
    expect(metrics.top1).toBeGreaterThanOrEqual(0.85);
    expect(metrics.recall_at_3).toBeGreaterThanOrEqual(metrics.top1);
    expect(metrics.abstain_recall).toBeGreaterThanOrEqual(0.5);
    expect(metrics.false_trigger).toBeLessThan(0.25);
  });

  it("router fit learns from the other half and stores it; router eval then measures what fit reported", () => {
    const fitted = runCli(["fit", EXAMPLES, "--db", db, "--json"]);
    expect(fitted.status, fitted.stderr).toBe(0);
    const report = JSON.parse(fitted.stdout);
    expect(report.training.cases).toBe(train.length);
    expect(report.abstainExamples).toBe(train.filter((item) => item.expected === null).length);
    expect(report.params.threshold).toBeGreaterThan(0);
    expect(report.params.threshold).toBeLessThan(1);
    expect(report.params.origin).toContain(`router fit ${EXAMPLES} (${train.length} training cases`);
    expect(report.heldOut.cases).toBe(test.length);

    const text = runCli(["fit", EXAMPLES, "--db", db]);
    expect(text.stdout).toMatch(new RegExp(`^Fitted on ${train.length} cases and stored in .*: in-scope threshold 0\\.\\d\\d`));
    expect(text.stderr).toMatch(/^routing training cases \d+\/\d+ cases \(100%\) in \d+\.\d s$/m);
    expect(text.stderr).toMatch(/^routing held-out cases \d+\/\d+ cases \(100%\) in \d+\.\d s$/m);

    const after = JSON.parse(runCli(["eval", EXAMPLES, "--db", db, "--json"]).stdout);
    expect(after.metrics.cases).toBe(test.length);
    expect([after.metrics.top1, after.metrics.routed, after.metrics.abstain_recall]).toEqual([report.heldOut.top1, report.heldOut.routed, report.heldOut.abstain_recall]);
  });
});
