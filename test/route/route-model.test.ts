import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dotRow, normalise } from "../../src/models/vector-math.js";
import { loadRouteModel, type RouteModel } from "../../src/route/route-model.js";
import type { TextSlot, SkillTextSlots } from "../../src/route/vector-cache.js";
import { openIndexForRead, openIndexForWrite, type IndexDatabase } from "../../src/store/database.js";
import { runIndex } from "../../src/indexer/run-index.js";
import { readMeta } from "../../src/store/index-meta.js";
import { denseData } from "../../src/store/dense-data.js";
import { skillTextStrings, skillVectorReader } from "../../src/store/vectors.js";
import { markRoutingDataOlder } from "../helpers/older-routing-data.js";
import { indexSkillSet } from "../helpers/skill-set.js";

const dir = mkdtempSync(path.join(tmpdir(), "route-model-"));
let index: IndexDatabase;
let roomy: RouteModel;
let root: string;

beforeAll(async () => {
  const set = await indexSkillSet(dir);
  const { db } = set;
  root = set.root;
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
      await expect(loadRouteModel(outdated)).rejects.toMatchObject({ code: "INDEX_CORRUPT" });
    } finally {
      outdated.close();
    }
  });

  it("refuses routing data in an older format, which the next `router index` writes anew without a new index version", async () => {
    const copy = path.join(dir, "older-format.db");
    await index.backup(copy);
    const version = readMeta(index).indexVersion;
    markRoutingDataOlder(copy);
    const older = openIndexForRead(copy);
    try {
      await expect(loadRouteModel(older)).rejects.toMatchObject({ code: "INDEX_OUTDATED" });
    } finally {
      older.close();
    }
    await runIndex({ paths: [root], db: copy });
    const repaired = openIndexForRead(copy);
    try {
      expect(readMeta(repaired).indexVersion).toBe(version);
      expect(denseData.isCurrent(repaired)).toBe(true);
      expect((await loadRouteModel(repaired)).skills.length).toBe(roomy.skills.length);
    } finally {
      repaired.close();
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

  it("tells a skill's queries from its negatives as they were stored", () => {
    const kindsOf = index.prepare("SELECT kind FROM texts WHERE skill_id = ? ORDER BY id").pluck();
    roomy.texts(roomy.skills.map((_, skill) => skill)).forEach((entry, skill) => {
      const kinds = kindsOf.all(roomy.skills[skill]!.id);
      expect(["description", ...entry.queries.map(() => "query"), ...entry.negatives.map(() => "negative")]).toEqual(kinds);
    });
    expect(roomy.texts(roomy.skills.map((_, skill) => skill)).some((entry) => entry.negatives.length > 0)).toBe(true);
  });

  it("compares a query with each text as the dot product of the vectors stored for it, and shows the text stored with it", () => {
    const skills = roomy.skills.map((_, skill) => skill);
    const vectors = skillVectorReader(index)(roomy.skills.map((skill) => skill.id));
    const strings = skillTextStrings(index);
    const query = unitVector(roomy.dimension, 7);
    const similarity = roomy.compareWith(query);
    roomy.texts(skills).forEach((entry, skill) => {
      const id = roomy.skills[skill]!.id;
      const texts = [entry.description!, ...entry.queries, ...entry.negatives];
      expect(texts.map((text) => roomy.textString(skill, text.position))).toEqual(strings(id));
      texts.forEach((text, at) => expect(similarity(text)).toBeCloseTo(dotRow(query, vectors.get(id)!, at, roomy.dimension), 5));
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
    const sims = (entries: SkillTextSlots[], similarity: (text: TextSlot) => number) => entries.map((entry) => entry.queries.map((text) => [text.position, similarity(text)]));
    expect(sims(answered, tightSimilarity)).toEqual(sims(roomy.texts(skills), roomySimilarity));
  });
});

/** A unit vector with pseudo-random components, the same for the same seed. */
function unitVector(dimension: number, seed: number): Float32Array {
  return normalise(Float32Array.from({ length: dimension }, (_, at) => Math.sin(seed * 997 + at * 31)));
}
