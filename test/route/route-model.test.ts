import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRouteModel, type RouteModel } from "../../src/route/route-model.js";
import { openIndexForRead, type IndexDatabase } from "../../src/store/database.js";
import { indexSkillSet } from "../helpers/skill-set.js";

const dir = mkdtempSync(path.join(tmpdir(), "route-model-"));
let index: IndexDatabase;
let roomy: RouteModel;

beforeAll(async () => {
  const { db } = await indexSkillSet(dir);
  index = openIndexForRead(db);
  roomy = await loadRouteModel(index);
});

afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the route model's vector reader", () => {
  it("reads every skill's texts by kind, in order", () => {
    const all = roomy.skills.map((_, skill) => skill);
    const vectors = roomy.vectors(all);
    expect(vectors.every((entry) => entry.description !== undefined && entry.queries.length > 0)).toBe(true);
    expect(vectors.reduce((sum, entry) => sum + 1 + entry.queries.length + entry.negatives.length, 0)).toBe(roomy.textCount);
  });

  it("answers every skill asked for even when reading the missing ones evicts cached ones", async () => {
    // A cache that holds about one skill: the second call's hits are evicted while its misses are added.
    const tight = await loadRouteModel(index, () => undefined, 1);
    const skills = roomy.skills.map((_, skill) => skill);
    tight.vectors(skills.slice(0, 2));
    const answered = tight.vectors(skills);
    expect(answered.map((entry) => entry?.queries.map((text) => text.text))).toEqual(roomy.vectors(skills).map((entry) => entry.queries.map((text) => text.text)));
  });
});
