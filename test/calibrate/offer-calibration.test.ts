import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVERYDAY_ANSWERED } from "../../src/calibrate/calibrate-offer.js";
import EVERYDAY_BANK from "../../src/calibrate/everyday-bank.json" with { type: "json" };
import { runIndex } from "../../src/indexer/run-index.js";
import { MAX_OFFERED } from "../../src/route/answer.js";
import { createRouter } from "../../src/route/router.js";
import { openIndexForRead } from "../../src/store/database.js";
import { offerCalibrationRecord, type OfferCalibration } from "../../src/store/offer-calibration.js";
import { DOMAINS } from "../helpers/domains.js";
import { writeFile } from "../helpers/fixtures.js";

// Shared by both tests (tempDir's folders go after each test).
const dir = mkdtempSync(path.join(tmpdir(), "offer-calibration-"));
let db: string;
let measured: OfferCalibration;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const skills = DOMAINS.map(([name, description, queries]) => ({ name, description, queries }));
  const set = writeFile(path.join(dir, "set.json"), JSON.stringify({ name: "domains", skills, cases: [] }));
  db = path.join(dir, "router.db");
  await runIndex({ paths: [set], db });
  const index = openIndexForRead(db);
  try {
    measured = offerCalibrationRecord.read(index)!;
  } finally {
    index.close();
  }
}, 120_000);

describe("the offer calibration of router index", () => {
  it("is measured with no labels: each skill's request held out, and the shipped everyday requests no skill claims", () => {
    expect(measured.requests).toBe(DOMAINS.length);
    // Everyday requests some skill here claims ("convert 5 miles to km" has a unit converter) are no chat on this index.
    expect(measured.everyday).toBeGreaterThan(EVERYDAY_BANK.length / 2);
    expect(measured.everyday).toBeLessThan(EVERYDAY_BANK.length);
    expect(measured.gate?.threshold).toBeGreaterThan(0);
    // The gate lets this share of everyday requests through (each judged by a gate fitted without it).
    expect(measured.everydayAnswered).toBeLessThanOrEqual(EVERYDAY_ANSWERED + 0.01);
    expect(measured.requestsOffered).toBeGreaterThan(0.5);
    expect(measured.ratio).toBeGreaterThan(0);
    expect(measured.ratio).toBeLessThanOrEqual(1);
    expect(measured.holdsRight).toBeGreaterThan(0.5);
  });

  it("serves every route: requests that want a skill get it or a short list holding it, everyday chat gets none", async () => {
    const router = await createRouter({ db });
    try {
      for (const [query, skill] of [
        ["is it going to rain in Oslo on Sunday", "weather-forecast"],
        ["my kubernetes pod keeps restarting after the deploy", "kubernetes-debug"],
        ["how many kilometres is 10 miles", "unit-converter"],
      ] as const) {
        const answer = await router.route(query);
        const handed = answer.decision === "inject" ? answer.selected : (answer.offer?.skills.map((offered) => offered.name) ?? []);
        expect(handed, query).toContain(skill);
        expect(handed.length).toBeLessThanOrEqual(MAX_OFFERED);
        if (answer.offer) expect(answer.offer).toMatchObject({ holds_right_skill: measured.holdsRight, tokens: expect.any(Number) });
      }
      for (const query of ["hey, how are you doing today?", "thanks, that's all"]) expect((await router.route(query)).decision, query).toBe("none");
    } finally {
      await router.close();
    }
  });
});
