import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRerankerInProcess } from "../../src/models/create-reranker.js";
import type { Reranker } from "../../src/models/embedder.js";
import { MODEL_CATALOGUE, modelFolder } from "../../src/models/model-catalogue.js";
import type { RouteModel } from "../../src/route/route-model.js";
import { createRouter, type Router } from "../../src/route/router.js";
import type { ScoredCandidate } from "../../src/route/score.js";
import { breakTies } from "../../src/route/tie-break.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { writeTinyBert } from "../helpers/tiny-bert.js";

const dir = mkdtempSync(path.join(tmpdir(), "tie-break-"));
let plain: Router;
let tieBreaking: Router;
let reranker: Reranker;

beforeAll(async () => {
  const { db } = await indexSkillSet(dir);
  const modelsDir = path.join(dir, "models");
  writeTinyBert(modelFolder(modelsDir, MODEL_CATALOGUE.reranker), "sequence-classification", 3);
  const load = await loadRerankerInProcess({ modelsDir });
  if (load.status !== "ready") throw new Error(load.reason);
  reranker = load.reranker;
  plain = await createRouter({ db });
  tieBreaking = await createRouter({ db, tieBreak: reranker });
});

afterAll(async () => {
  await plain.close();
  await tieBreaking.close();
  await reranker.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the cross-encoder tie-break", () => {
  // Nothing fits: every candidate's confidence is low, so the first few are tied.
  const _query = "tell me a joke about penguins";

  it("reorders only the candidates tied for first, and the tied confidences stay in their places", async () => {
    const model = { skills: ["pdf-extract", "sql-query-review", "k8s-debug", "get_current_weather"].map((name) => ({ name, description: `${name} skill` })) } as RouteModel;
    const candidate = (skill: number, confidence: number) => ({ evidence: { skill, signals: {} }, features: [], logit: confidence, share: confidence, confidence }) as unknown as ScoredCandidate;
    // Three close together at the top, one far behind.
    const ranked = [candidate(0, 0.5), candidate(1, 0.45), candidate(2, 0.41), candidate(3, 0.05)];
    const after = await breakTies(reranker, model, "review the SQL in this PDF", ranked);
    expect(after.map((item) => item.confidence)).toEqual([0.5, 0.45, 0.41, 0.05]);
    expect(new Set(after.slice(0, 3).map((item) => item.evidence.skill))).toEqual(new Set([0, 1, 2]));
    expect(after[3]!.evidence.skill).toBe(3);
    const scores = after.slice(0, 3).map((item) => item.evidence.signals.rerank!);
    expect(scores.every((score) => score > 0 && score < 1)).toBe(true);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(after[3]!.evidence.signals.rerank).toBeUndefined();
  });

  it("runs in the router when asked for, and says which model", async () => {
    const result = await tieBreaking.route("tell me a joke about penguins", { k: 5, threshold: 0 });
    expect(result.skills.filter((skill) => skill.signals.rerank !== undefined).length).toBeGreaterThanOrEqual(2);
    expect([result.reranker, tieBreaking.status().reranker, plain.status().reranker]).toEqual([reranker.id, reranker.id, null]);
  });

  it("never rereads a clear winner", async () => {
    const clear = await tieBreaking.route("my pod keeps restarting with CrashLoopBackOff, how do I debug it with kubectl?", { k: 5 });
    expect(clear.selected).toEqual(["k8s-debug"]);
    expect(clear.skills.every((skill) => skill.signals.rerank === undefined)).toBe(true);
  });
});
