import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { writeAgentSkill } from "../helpers/fixtures.js";
import { runProcess } from "./run-process.js";

// The package as npm publishes it: packed (dist/ and the offline model are already built by the tests' setup),
// unpacked into a scratch project's node_modules beside links to its dependencies, and imported by name.
const project = mkdtempSync(path.join(tmpdir(), "package-exports-"));
let packed: string[];

beforeAll(() => {
  const [pack] = JSON.parse(execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", project], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as {
    filename: string;
    files: { path: string }[];
  }[];
  packed = pack!.files.map((file) => file.path);
  const installed = path.join(project, "node_modules", "skill-router");
  mkdirSync(installed, { recursive: true });
  execFileSync("tar", ["-xzf", path.join(project, pack!.filename), "-C", installed, "--strip-components=1"]);
  for (const entry of readdirSync("node_modules").filter((name) => !name.startsWith("."))) symlinkSync(path.resolve("node_modules", entry), path.join(project, "node_modules", entry));
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "my-harness", type: "module", private: true }));
}, 120_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("the published package", () => {
  it("holds dist/, the offline model built once, and no build tooling", () => {
    expect(packed).toEqual(expect.arrayContaining(["models/use-lite-512/model.onnx", "models/use-lite-512/vocab.json", "models/use-lite-512/LICENSE", "models/use-lite-512/build.json"]));
    for (const entry of ["index", "client/index", "exports/embedder", "exports/eval", "exports/fit"]) expect(packed).toEqual(expect.arrayContaining([`dist/${entry}.js`, `dist/${entry}.d.ts`]));
    expect(packed.filter((file) => /tf-graph-to-onnx|build-offline-model/.test(file))).toEqual([]);
  });

  it("imports skill-router, /client, /embedder, /eval and /fit by name, and they work together", async () => {
    const skills = path.join(project, "skills");
    writeAgentSkill(skills, "k8s-debug", { description: "Debug failing Kubernetes pods: CrashLoopBackOff, OOMKilled. Use when a pod keeps restarting." });
    writeAgentSkill(skills, "pdf-extract", { description: "Extract text and tables from PDF files. Use when the user shares a PDF." });
    writeAgentSkill(skills, "sql-query-review", { description: "Speed up slow SQL queries with EXPLAIN ANALYZE. Use when a database query is slow." });
    writeFileSync(
      path.join(project, "harness.mjs"),
      `import { createRouter, runIndex } from "skill-router";
import { createRouterClient } from "skill-router/client";
import { createEmbedder, USE_LITE } from "skill-router/embedder";
import { computeMetrics, parseEvalSet, runCases } from "skill-router/eval";
import { fitIndex } from "skill-router/fit";

const embedder = await createEmbedder({ embedder: "offline" });
const [vector] = await embedder.embed(["my pod keeps restarting"]);
await embedder.close();
const set = parseEvalSet({ cases: [
  { query: "my pod keeps restarting", expected: "k8s-debug" },
  { query: "pull the tables out of this pdf", expected: "pdf-extract" },
  { query: "this postgres query takes forever", expected: "sql-query-review" },
  { query: "tell me a joke", expected: null },
] }, "inline cases");
const db = "index/router.db";
await runIndex({ paths: ["skills"], db });
const router = await createRouter({ db });
const metrics = computeMetrics(await runCases(router, set.cases, 3));
await router.close();
const fitted = await fitIndex({ db, train: set.cases, test: [], origin: "harness" });
console.log(JSON.stringify({ id: embedder.id, dimension: vector.length, offline: USE_LITE.id, cases: metrics.cases, top1: metrics.top1, trained: fitted.training.cases, client: typeof createRouterClient }));
`,
    );
    const run = await runProcess(process.execPath, ["harness.mjs"], "", { cwd: project });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ id: "use-lite-512", dimension: 512, offline: "use-lite-512", cases: 4, top1: 1, trained: 4, client: "function" });
  });

  it("records a piece of feedback into a real index with recordFeedback from skill-router", async () => {
    const skills = path.join(project, "feedback-skills");
    writeAgentSkill(skills, "k8s-debug", { description: "Debug failing Kubernetes pods: CrashLoopBackOff, OOMKilled. Use when a pod keeps restarting." });
    writeAgentSkill(skills, "pdf-extract", { description: "Extract text and tables from PDF files. Use when the user shares a PDF." });
    writeFileSync(
      path.join(project, "feedback.mjs"),
      `import { createRouter, recordFeedback, runIndex } from "skill-router";

const db = "feedback-index/router.db";
await runIndex({ paths: ["feedback-skills"], db });
const router = await createRouter({ db });
const query = "the nightly backup pod keeps getting OOMKilled";
const answer = await router.route(query);
const { row, duplicate } = await recordFeedback(router, db, { query, skill: "k8s-debug", route_id: answer.route_id }, "my-harness", 1000);
await router.close();
console.log(JSON.stringify({ skill: row.skill, role: row.role, client: row.client, duplicate }));
`,
    );
    const run = await runProcess(process.execPath, ["feedback.mjs"], "", { cwd: project });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ skill: "k8s-debug", role: "example", client: "my-harness", duplicate: false });
    // Committed to the index file: the router CLI reads it back from there.
    const listed = runCli(["feedback", "list", "--db", path.join(project, "feedback-index/router.db"), "--json"]);
    expect(listed.status, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ query: "the nightly backup pod keeps getting OOMKilled", skill: "k8s-debug", client: "my-harness", role: "example" })]);
  });

  it("publishes the types of every subpath", async () => {
    writeFileSync(
      path.join(project, "harness.ts"),
      `import type { FeedbackRequest, RecordedFeedback, Router } from "skill-router";
import type { RouteResult } from "skill-router/client";
import type { Embedder, EmbedderOptions } from "skill-router/embedder";
import type { EvalCase, EvalMetrics } from "skill-router/eval";
import type { FitIndexOptions, FitIndexReport } from "skill-router/fit";

export type Harness = [Router, FeedbackRequest, RecordedFeedback, RouteResult, Embedder, EmbedderOptions, EvalCase, EvalMetrics, FitIndexOptions, FitIndexReport];
`,
    );
    writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", strict: true, noEmit: true, skipLibCheck: true, types: ["node"] },
        files: ["harness.ts"],
      }),
    );
    const check = await runProcess(process.execPath, [path.resolve("node_modules/typescript/bin/tsc"), "-p", project], "");
    expect([check.code, check.stdout]).toEqual([0, ""]);
  });
});
