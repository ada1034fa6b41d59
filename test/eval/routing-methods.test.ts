import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { bm25Description } from "../../bench/methods/bm25-description.js";
import { denseDescription } from "../../bench/methods/dense-description.js";
import { hybridRouter } from "../../bench/methods/hybrid-router.js";
import { keywordRouter, manifestKeywords } from "../../bench/methods/keyword-router.js";
import { ruvectorPeer } from "../../bench/methods/ruvector-peer.js";
import { runIndex } from "../../src/indexer/run-index.js";
import { createEmbedder } from "../../src/models/create-embedder.js";
import { FIXTURE_CASES, FIXTURE_SKILLS, writeEvalSet } from "./eval-fixture.js";
import { describeRoutingMethodConformance } from "./routing-method-conformance.js";

let dir = "";
let db = "";

beforeAll(async () => {
  // tempDir() is emptied after every test; this index serves the whole file.
  dir = mkdtempSync(path.join(tmpdir(), "skill-router-methods-"));
  const file = writeEvalSet(path.join(dir, "set"));
  db = path.join(dir, "methods.db");
  await runIndex({ paths: [file], db });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeRoutingMethodConformance({ name: "keyword router (a)", create: async () => keywordRouter(manifestKeywords(db)) });
describeRoutingMethodConformance({ name: "BM25 name + description (b)", create: () => bm25Description(FIXTURE_SKILLS, FIXTURE_CASES) });
describeRoutingMethodConformance({ name: "dense description (c)", create: async () => denseDescription(FIXTURE_SKILLS, await createEmbedder(), FIXTURE_CASES) });
describeRoutingMethodConformance({ name: "@ruvector/router peer (p)", create: async () => ruvectorPeer(FIXTURE_SKILLS, await createEmbedder(), FIXTURE_CASES) });
describeRoutingMethodConformance({ name: "hybrid router (d-g)", create: () => hybridRouter({ db }) });
