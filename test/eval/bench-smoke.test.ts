import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runBench } from "../../bench/run-bench.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";
import { FIXTURE_CASES, FIXTURE_SKILLS, writeEvalSet } from "./eval-fixture.js";

/** A corpus laid out like ../shared/corpus: SKILL.md folders listed in index.json, MCP servers, OpenAI functions. */
function writeCorpus(root: string): string {
  const skills = [
    ["terraform-plan", "Review Terraform plans before apply: resource changes, drift, destroys."],
    ["sql-tuning", "Speed up slow SQL queries with EXPLAIN plans and indexes."],
    ["release-notes", "Write release notes from merged pull requests."],
    ["docker-debug", "Debug Docker builds and containers that fail to start."],
  ];
  const index = skills.map(([name, description]) => {
    writeAgentSkill(path.join(root, "skills", "demo__skills"), name!, { description: description! });
    return { dir: `demo__skills/${name}`, source_path: `skills/${name}/SKILL.md`, name, description };
  });
  writeFile(path.join(root, "skills", "index.json"), JSON.stringify(index));
  const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: "object", properties: { query: { type: "string" } } } });
  writeFile(
    path.join(root, "tools", "mcp-smithery.json"),
    JSON.stringify({ servers: [{ server: "@demo/search", tools: [tool("web_search", "Search the web"), tool("news_search", "Search recent news"), tool("image_search", "Find images")] }] }),
  );
  const fn = (name: string, description: string) => ({ type: "function", function: { name, description, parameters: { type: "object", properties: { city: { type: "string" } } } } });
  writeFile(
    path.join(root, "tools", "seal-tools.json"),
    JSON.stringify([fn("getWeather", "Get the weather for a city"), fn("bookHotel", "Book a hotel room in a city"), fn("findFlight", "Find flights between two cities")]),
  );
  return root;
}

/** A folder laid out like ../shared/eval/trigger-dev: real-looking skills and their trigger cases. */
function writeTriggerDev(root: string): string {
  writeAgentSkill(path.join(root, "skills"), "invoice-builder", { description: "Create PDF invoices for clients. Use when the user bills a customer. Not for payroll." });
  writeAgentSkill(path.join(root, "skills"), "meal-planner", { description: "Plan weekly meals and shopping lists. Use when the user asks what to cook this week." });
  const cases = [
    { query: "bill my client for 10 hours of work", expected: "invoice-builder", source: "invoice-builder" },
    { query: "what should we cook this week", expected: "meal-planner", source: "meal-planner" },
    { query: "pay my employees their salaries", expected: null, source: "invoice-builder" },
    { query: "本周做什么菜", expected: "meal-planner", source: "meal-planner" },
  ];
  writeFile(path.join(root, "cases.json"), JSON.stringify({ name: "trigger-dev", cases }));
  // The agent's judgments: it would load the right skill for every positive, and none for the near miss.
  const judged = cases.map((item) => ({ query: item.query, offered: ["invoice-builder", "meal-planner"], pick: item.expected, also: [] }));
  writeFile(path.join(root, "agent-judgments.jsonl"), judged.map((line) => JSON.stringify(line)).join("\n"));
  // The LLM track's manifests: one for a skill of the eval set, one for a distractor.
  const manifest = (queries: string[]) => JSON.stringify({ queries, keywords: [], phrases: [], negatives: [], negative_constraint: "", category: "" });
  writeFile(
    path.join(root, "llm-manifests.jsonl"),
    [`{"name": "invoice-builder", "manifest": ${manifest(["invoice my client for consulting hours"])}}`, `{"name": "sql-tuning", "manifest": ${manifest(["my query is slow, explain why"])}}`].join(
      "\n",
    ),
  );
  return root;
}

describe("npm run bench, in small", () => {
  // Model loads and child processes add up; a loaded 2-core machine needs more than the default minute.
  it("measures every method, scale and HTTP, and writes the results, the chart and the targets", { timeout: 180_000 }, async () => {
    const dir = tempDir();
    const resultsMd = writeFile(path.join(dir, "RESULTS.md"), "# Benchmark results\n\n## Models\n\nkept as it was\n");
    const fixture = writeEvalSet(path.join(dir, "eval"));
    const other = writeFile(path.join(dir, "eval", "other.json"), JSON.stringify({ name: "other", skills: FIXTURE_SKILLS, cases: FIXTURE_CASES }));
    const corpus = writeCorpus(path.join(dir, "corpus"));
    const results = await runBench({
      parts: ["trigger", "accuracy", "scale", "http"],
      trigger: {
        evalDir: writeTriggerDev(path.join(dir, "trigger-dev")),
        distractorSets: [{ label: "demo", paths: [path.join(corpus, "skills", "demo__skills")], tracks: ["heuristic", "llm"] }],
        everydaySets: [fixture],
      },
      datasets: [{ name: "fixture", file: fixture }],
      fitSets: [
        { name: "fixture", file: fixture },
        { name: "other", file: other },
      ],
      corpus,
      sizes: [5, 10],
      probeQueries: 6,
      probeWarmup: 2,
      httpSizes: [10],
      http: {
        warmup: 2,
        runs: [
          { connections: 1, requests: 6 },
          { connections: 2, requests: 6 },
        ],
      },
      cacheDir: path.join(dir, "cache"),
      resultsJson: path.join(dir, "results.json"),
      resultsMd,
      chartSvg: path.join(dir, "chart.svg"),
      fresh: false,
      log: () => {},
    });

    const [trigger, llmTrack] = results.trigger!.figures;
    expect(trigger!.skills).toMatchObject({ evalSkills: 2, evalSkillsIndexed: 2, distractors: 4 });
    expect(trigger!.all).toMatchObject({ positives: 3, negatives: 1 });
    expect(trigger!.byScript.han.positives).toBe(1);
    expect([trigger!.track, trigger!.imported, llmTrack!.track, llmTrack!.imported]).toEqual(["heuristic", 0, "llm", 2]);
    expect(llmTrack!.all).toMatchObject({ positives: 3, negatives: 1 });
    // Every request is scored as the agent takes each answer: offered its skill, the agent loads it; offered anything
    // for the near miss, nothing.
    for (const kind of ["answer", "injectOrNone", "topThree"] as const) {
      expect(trigger!.reach[kind]).toMatchObject({ positives: 3, negatives: 1 });
      expect(trigger!.reach[kind].tokens).toHaveLength(4);
    }
    expect(trigger!.reach.topThree).toMatchObject({ anyLoaded: 0, none: 0 });
    // The English requests' skills rank in the top 3 (the Chinese one's may not: the offline model cannot read it).
    expect(trigger!.reach.topThree.rightReached).toBeGreaterThanOrEqual(2);
    expect(trigger!.everyday.answer.requests).toBe(FIXTURE_CASES.filter((item) => item.expected === null).length);

    const [measured] = results.accuracy!.datasets;
    // h and i are fitted without "fixture" (on "other" only), so they run.
    expect(measured!.methods.map((method) => method.id)).toEqual(["a", "b", "c", "p", "d", "e", "h", "i", "f", "g"]);
    for (const method of measured!.methods.filter((entry) => !entry.skipped)) {
      expect(method.metrics!.cases, method.id).toBe(measured!.testCases);
      expect(method.metrics!.top1, method.id).toBeGreaterThanOrEqual(0);
    }
    expect(measured!.methods.find((method) => method.id === "h")!.skipped).toBeUndefined();
    expect(measured!.testCases + measured!.trainCases).toBe(24);
    expect(results.scale!.sizes.map((size) => size.build.skills)).toEqual([5, 10]);
    expect(results.scale!.sizes.every((size) => size.probe.withoutEmbed.p50 > 0 && size.probe.rssMb > 0)).toBe(true);
    // Each probe reloaded its copy of the index while routing, and no route failed.
    expect(results.scale!.sizes.map(({ probe: { reload } }) => [reload.ms > 0, reload.routesDuring > 0, reload.failedDuring])).toEqual([
      [true, true, 0],
      [true, true, 0],
    ]);
    const [http] = results.http!.figures;
    expect(http!.runs.map((run) => [run.connections, run.requests, run.errors, run.non2xx])).toEqual([
      [1, 6, 0, 0],
      [2, 6, 0, 0],
    ]);

    const markdown = readFileSync(resultsMd, "utf8");
    expect(markdown).toContain("## Models\n\nkept as it was\n");
    for (const heading of ["## Unseen skills: trigger-dev", "## Routing accuracy", "### fixture", "## Scale", "## Over HTTP", "## Targets"]) expect(markdown).toContain(heading);
    expect(readFileSync(path.join(dir, "chart.svg"), "utf8")).toMatch(/^<svg[^>]*>[\s\S]*<\/svg>\n$/);
    expect(existsSync(path.join(dir, "results.json"))).toBe(true);
  });
});
