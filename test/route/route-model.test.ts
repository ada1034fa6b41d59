import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dotRow, normalise } from "../../src/models/vector-math.js";
import { loadRouteModel, type RouteModel } from "../../src/route/route-model.js";
import type { SkillText, SkillTexts } from "../../src/route/vector-cache.js";
import { openIndexForRead, openIndexForWrite, type IndexDatabase } from "../../src/store/database.js";
import { skillTextReader } from "../../src/store/vectors.js";
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

describe("loading a route model", () => {
  it("refuses an index whose routing data was written for other skills", async () => {
    const copy = path.join(dir, "outdated.db");
    await index.backup(copy);
    const writer = openIndexForWrite(copy);
    writer.prepare("DELETE FROM skills WHERE name = (SELECT min(name) FROM skills)").run();
    writer.close();
    const outdated = openIndexForRead(copy);
    try {
      await expect(loadRouteModel(outdated)).rejects.toMatchObject({ code: "INDEX_OUTDATED" });
    } finally {
      outdated.close();
    }
  });
});

describe("the route model's vector reader", () => {
  it("reads every skill's texts by kind, in order", () => {
    const all = roomy.skills.map((_, skill) => skill);
    const texts = roomy.texts(all);
    expect(texts.every((entry) => entry.description !== undefined && entry.queries.length > 0)).toBe(true);
    expect(texts.reduce((sum, entry) => sum + 1 + entry.queries.length + entry.negatives.length, 0)).toBe(roomy.textCount);
  });

  it("compares a query with each text as the dot product of the vectors stored for it", () => {
    const skills = roomy.skills.map((_, skill) => skill);
    const stored = skillTextReader(index, roomy.dimension)(roomy.skills.map((skill) => skill.id));
    const query = unitVector(roomy.dimension, 7);
    const similarity = roomy.compareWith(query);
    roomy.texts(skills).forEach((entry, skill) => {
      const expected = stored.get(roomy.skills[skill]!.id)!;
      const texts = [entry.description!, ...entry.queries, ...entry.negatives];
      expect(texts.map((text) => text.text)).toEqual(expected.map((text) => text.text));
      texts.forEach((text, at) => expect(similarity(text)).toBeCloseTo(dotRow(query, expected[at]!.vector, 0, roomy.dimension), 5));
    });
  });

  it("answers every skill asked for even when reading the missing ones evicts cached ones", async () => {
    // A cache that holds less than one skill: the second call's hits must survive while its misses are added.
    const tight = await loadRouteModel(index, () => undefined, 1);
    const skills = roomy.skills.map((_, skill) => skill);
    const query = unitVector(roomy.dimension, 11);
    tight.texts(skills.slice(0, 2));
    tight.texts(skills.slice(2, 4));
    const answered = tight.texts(skills);
    const [tightSimilarity, roomySimilarity] = [tight.compareWith(query), roomy.compareWith(query)];
    const sims = (entries: SkillTexts[], similarity: (text: SkillText) => number) => entries.map((entry) => entry.queries.map((text) => [text.text, similarity(text)]));
    expect(sims(answered, tightSimilarity)).toEqual(sims(roomy.texts(skills), roomySimilarity));
  });
});

/** A unit vector with pseudo-random components, the same for the same seed. */
function unitVector(dimension: number, seed: number): Float32Array {
  return normalise(Float32Array.from({ length: dimension }, (_, at) => Math.sin(seed * 997 + at * 31)));
}
