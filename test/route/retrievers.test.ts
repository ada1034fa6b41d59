import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createEmbedder } from "../../src/models/create-embedder.js";
import type { Embedder } from "../../src/models/embedder.js";
import { normalise } from "../../src/models/vector-math.js";
import { VectorSlots } from "../../src/models/vector-slots.js";
import { analyseText } from "../../src/text/analyse-text.js";
import { bm25Retriever } from "../../src/route/bm25-retriever.js";
import { keywordRetriever } from "../../src/route/keyword-retriever.js";
import { lexicalIndex } from "../../src/route/lexical-index.js";
import { signCodes } from "../../src/models/sign-codes.js";
import { denseRetriever, EXACT_SCAN_LIMIT } from "../../src/route/dense-retriever.js";
import { loadRouteModel, writeCentroids, type RouteModel } from "../../src/route/route-model.js";
import { openIndexForRead } from "../../src/store/database.js";
import { emptyLexicalTables } from "../../src/store/lexical-data.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { describeRetrieverConformance } from "./retriever-conformance.js";

let model: RouteModel;
let large: RouteModel;
let embedder: Embedder;
const dir = mkdtempSync(path.join(tmpdir(), "retrievers-"));

beforeAll(async () => {
  const { db } = await indexSkillSet(dir);
  const index = openIndexForRead(db);
  model = await loadRouteModel(index);
  index.close();
  large = await withDistractors(model, EXACT_SCAN_LIMIT + 500);
  embedder = await createEmbedder();
});

/** Random unit centroids. */
function randomCentroids(count: number, dimension: number, seed: number): Float32Array {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31 - 0.5;
  const centroids = new Float32Array(count * dimension).map(next);
  for (let row = 0; row < count; row++) normalise(centroids.subarray(row * dimension, (row + 1) * dimension));
  return centroids;
}

/** The model's skills, at the same indexes, among unrelated ones (random centroids) up to `count`: a large index, whose dense search compares sign codes first. */
async function withDistractors(model: RouteModel, count: number): Promise<RouteModel> {
  const { dimension } = model;
  const centroids = randomCentroids(count, dimension, 7);
  centroids.set(model.centroids.rows(1, model.skills.length)!);
  const slots = new VectorSlots(dimension);
  await writeCentroids(slots, centroids, count, () => undefined);
  const distractors = Array.from({ length: count - model.skills.length }, (_, n) => ({ ...model.skills[0]!, id: `distractor-${n}`, name: `distractor-${n}` }));
  return { ...model, skills: [...model.skills, ...distractors], centroids: slots, centroidCodes: signCodes(centroids, count, dimension) };
}

afterAll(async () => {
  await embedder.close();
  rmSync(dir, { recursive: true, force: true });
});

const query = async (text: string) => ({ text, wanted: text, terms: analyseText(text), vector: (await embedder.embed([text]))[0]!, readable: true, otherScript: false });
const sources = (model: RouteModel) => ({ model, lexical: lexicalIndex(model.lexical, model.skills.length) });

describeRetrieverConformance({
  name: "bm25",
  model: () => model,
  create: (model) => bm25Retriever(sources(model)),
  query,
  obvious: { text: "kubectl CrashLoopBackOff pod", skill: "k8s-debug" },
  unknownWords: "nothing",
});
describeRetrieverConformance({
  name: "dense",
  model: () => model,
  create: (model) => denseRetriever(sources(model)),
  query,
  obvious: { text: "my kubernetes pod keeps crashing and restarting", skill: "k8s-debug" },
  unknownWords: "nearest",
});
describeRetrieverConformance({
  name: "dense over a large index (sign codes, then exact rescoring)",
  model: () => large,
  create: (model) => denseRetriever(sources(model)),
  query,
  obvious: { text: "my kubernetes pod keeps crashing and restarting", skill: "k8s-debug" },
  unknownWords: "nearest",
});

describeRetrieverConformance({
  name: "keywords",
  model: () => model,
  create: (model) => keywordRetriever(sources(model)),
  query,
  obvious: { text: "kubectl says CrashLoopBackOff", skill: "k8s-debug" },
  unknownWords: "nothing",
});

describe("dense retriever on a large index", () => {
  it("never loses clearly close skills to the bit-code coarse stage", async () => {
    const dimension = 512;
    const count = EXACT_SCAN_LIMIT + 1_000;
    const centroids = randomCentroids(count, dimension, 5);
    // Plant five skills near a query direction among 2,995 unrelated ones.
    const direction = randomCentroids(1, dimension, 99);
    const planted = [11, 700, 1500, 2222, 2990];
    planted.forEach((skill, rank) => {
      const row = centroids.subarray(skill * dimension, (skill + 1) * dimension);
      row.set(normalise(Float32Array.from(direction, (value, i) => value + ((0.02 + rank * 0.01) * (((i * (rank + 3)) % 11) - 5)) / 5)));
    });
    // The codes `router index` writes, taken once the planted skills are in, and the slots the route model loads.
    const slots = new VectorSlots(dimension);
    await writeCentroids(slots, centroids, count, () => undefined);
    const skills = Array.from({ length: count }, (_, index) => ({ name: `s${index}` })) as RouteModel["skills"];
    const model = { skills, dimension, centroids: slots, centroidCodes: signCodes(centroids, count, dimension) } as unknown as RouteModel;
    const retriever = denseRetriever({ model, lexical: lexicalIndex(emptyLexicalTables(), 0) });
    const found = retriever.retrieve({ text: "", wanted: "", terms: [], vector: direction, readable: true, otherScript: false }, 5);
    expect(found.map((hit) => hit.skill).sort((a, b) => a - b)).toEqual([...planted].sort((a, b) => a - b));
    for (let i = 1; i < found.length; i++) expect(found[i - 1]!.score).toBeGreaterThanOrEqual(found[i]!.score);
    const allowedOnly = retriever.retrieve({ text: "", wanted: "", terms: [], vector: direction, readable: true, otherScript: false }, 5, (skill) => skill !== 700);
    expect(allowedOnly.map((hit) => hit.skill)).not.toContain(700);
    expect(allowedOnly).toHaveLength(5);
  });
});
