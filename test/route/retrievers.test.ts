import { beforeAll, afterAll } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createEmbedder } from "../../src/models/create-embedder.js";
import type { Embedder } from "../../src/models/embedder.js";
import { analyseText } from "../../src/route/analyse-text.js";
import { bm25Retriever } from "../../src/route/bm25-retriever.js";
import { denseRetriever } from "../../src/route/dense-retriever.js";
import { loadRouteModel, type RouteModel } from "../../src/route/route-model.js";
import { openIndexForRead } from "../../src/store/database.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { describeRetrieverConformance } from "./retriever-conformance.js";

let model: RouteModel;
let embedder: Embedder;
const dir = mkdtempSync(path.join(tmpdir(), "retrievers-"));

beforeAll(async () => {
  const { db } = await indexSkillSet(dir);
  const index = openIndexForRead(db);
  model = loadRouteModel(index);
  index.close();
  embedder = await createEmbedder();
});

afterAll(async () => {
  await embedder.close();
  rmSync(dir, { recursive: true, force: true });
});

const query = async (text: string) => ({ text, terms: analyseText(text), vector: (await embedder.embed([text]))[0]! });

describeRetrieverConformance({ name: "bm25", model: () => model, create: bm25Retriever, query, obvious: { text: "kubectl CrashLoopBackOff pod", skill: "k8s-debug" } });
describeRetrieverConformance({ name: "dense", model: () => model, create: denseRetriever, query, obvious: { text: "my kubernetes pod keeps crashing and restarting", skill: "k8s-debug" } });
