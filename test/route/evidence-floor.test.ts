import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIndex, type IndexSummary } from "../../src/indexer/run-index.js";
import { EVERYDAY_REQUESTS } from "../../src/calibrate/everyday-requests.js";
import { evidenceFloorRecord } from "../../src/store/evidence-floor.js";
import { createRouter, type Router } from "../../src/route/router.js";
import { openIndexForRead, openIndexForWrite } from "../../src/store/database.js";
import { VERSION } from "../../src/version.js";
import { tempDir, writeAgentSkill } from "../helpers/fixtures.js";
import { indexSkillSet } from "../helpers/skill-set.js";

const dir = tempDir("evidence-floor-");
let summary: IndexSummary;
let router: Router;

// Twelve skills of separate domains: enough for `router index` to measure an evidence floor.
const MORE_SKILLS: [string, string][] = [
  ["invoice-builder", "Create and send PDF invoices to clients with line items, tax and due dates. Use when the user bills a customer."],
  ["recipe-planner", "Plan weekly meals and shopping lists from recipes. Use when the user asks what to cook this week."],
  ["flight-search", "Search and compare airline flights by price, stops and times. Use when the user wants to book a trip by plane."],
  ["docker-compose-helper", "Write and fix docker-compose.yml files: services, volumes, networks. Use when containers fail to start together."],
  ["regex-tester", "Build and test regular expressions against sample strings. Use when the user needs a regex to match text."],
  ["spreadsheet-formulas", "Write Excel and Google Sheets formulas such as VLOOKUP and SUMIFS. Use when a spreadsheet calculation is needed."],
  ["tax-deadlines", "Explain US federal income tax filing deadlines and extensions. Use when the user asks when taxes are due."],
];

beforeAll(async () => {
  const { root } = await indexSkillSet(dir);
  for (const [name, description] of MORE_SKILLS) writeAgentSkill(root, name, { description, body: `# ${name}\n\n${description}\n` });
  summary = await runIndex({ paths: [root], db: path.join(dir, "router.db") });
  router = await createRouter({ db: path.join(dir, "router.db") });
});

afterAll(async () => {
  await router?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the evidence floor router index measures", () => {
  it("is measured with no labels and stored in the index, with what the index now routes", async () => {
    expect(summary.calibration).toBeDefined();
    const { floor, absentRouted, everydayRouted } = summary.calibration!;
    expect(floor.samples).toBe(12);
    expect(floor.indexVersion).toBe(summary.indexVersion);
    expect(floor.routerVersion).toBe(VERSION);
    expect(floor.bm25).toBeGreaterThan(0);
    expect(floor.q2qMax).toBeGreaterThan(0);
    // What the index now routes is what a router over it does: the everyday requests routed again here.
    const everydayDecisions = await Promise.all(EVERYDAY_REQUESTS.map(async (query) => (await router.route(query)).decision));
    expect(everydayRouted).toBe(everydayDecisions.filter((decision) => decision === "inject").length / EVERYDAY_REQUESTS.length);
    // A share of the twelve left-out requests: a whole number of them.
    const absentCount = absentRouted * floor.samples;
    expect(absentCount).toBeCloseTo(Math.round(absentCount), 9);
    expect(absentRouted).toBeLessThanOrEqual(1);
    const db = openIndexForRead(path.join(dir, "router.db"));
    expect(evidenceFloorRecord.read(db)).toEqual(floor);
    db.close();
  });

  it("still injects a request with evidence", async () => {
    const result = await router.route("my pod keeps restarting with CrashLoopBackOff, how do I debug it with kubectl?");
    expect(result).toMatchObject({ decision: "inject", selected: ["k8s-debug"] });
  });

  it.each(["👍", "\u0007\u0007", "\ud800", "ポッドが再起動を繰り返します"])("answers none for %j: nothing in it matches any skill", async (query) => {
    const result = await router.route(query);
    expect(result.decision).toBe("none");
    expect(result.reason === "no_evidence" || result.reason === "below_threshold" || result.reason === "no_candidates").toBe(true);
  });

  it("is measured again on an unchanged index only when asked to, or when another release of the router measured it", async () => {
    const own = tempDir("evidence-floor-again-");
    const { root } = await indexSkillSet(own);
    for (const [name, description] of MORE_SKILLS) writeAgentSkill(root, name, { description, body: `# ${name}\n\n${description}\n` });
    const file = path.join(own, "router.db");
    const first = await runIndex({ paths: [root], db: file });
    expect((await runIndex({ paths: [root], db: file })).calibration).toBeUndefined();
    const again = await runIndex({ paths: [root], db: file, recalibrate: true });
    expect(again.indexVersion).toBe(first.indexVersion);
    expect(again.calibration?.floor).toEqual(first.calibration!.floor);
    const writer = openIndexForWrite(file);
    evidenceFloorRecord.write(writer, { ...first.calibration!.floor, routerVersion: "0.0.1" });
    writer.close();
    expect((await runIndex({ paths: [root], db: file })).calibration?.floor).toEqual(first.calibration!.floor);
  });

  it("is not measured (and not kept) for an index too small to leave a skill out of", async () => {
    const small = path.join(dir, "small");
    writeAgentSkill(small, "only-one", { description: "A single skill about gardening. Use when the user asks about plants." });
    const db = path.join(dir, "small.db");
    const run = await runIndex({ paths: [small], db });
    expect(run.calibration).toBeUndefined();
    const read = openIndexForRead(db);
    expect(evidenceFloorRecord.read(read)).toBeUndefined();
    read.close();
  });
});
