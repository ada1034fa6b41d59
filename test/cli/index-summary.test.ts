import { describe, expect, it } from "vitest";
import { formatSummary } from "../../src/cli/index-command.js";
import type { IndexSummary } from "../../src/indexer/run-index.js";

const summary: IndexSummary = {
  db: "router.db",
  damaged: undefined,
  added: ["a"],
  updated: [],
  unchanged: 0,
  moved: [],
  reexpanded: [],
  removed: [],
  embedded: 1,
  embedder: "use-lite-512",
  expansion: {
    expander: "heuristic",
    model: undefined,
    promptVersion: "1",
    sources: { file: 0, examples: 0, import: 0, llm: 0, heuristic: 1 },
    cacheHits: 0,
    llm: undefined,
    fallbacks: [],
    notices: [],
  },
  invalid: [],
  warnings: [],
  ignored: [],
  risky: [],
  skills: 40,
  indexVersion: 1,
  feedback: { examples: 0, lone: 0, negatives: 0, skills: 0, embedded: 0 },
  refit: undefined,
  folded: { store: "index", revision: 0, rows: 0, at: "2026-12-05T00:00:00.000Z" },
  scope: undefined,
  calibration: { floor: { bm25: 0.26, q2qMax: 0.67, samples: 40, indexVersion: 1 }, absentRouted: 0.42, everydayRouted: 0.04 },
  shareScale: { scale: 0.85, samples: 40, rankedFirst: 0.7 },
  durationMs: 1000,
};

describe("router index's summary", () => {
  it("says in plain words what the evidence floor and the share scale are, beside their figures", () => {
    const text = formatSummary(summary, false);
    expect(text).toContain("BM25 floor 0.26, dense floor 0.67");
    expect(text).toMatch(/\(the evidence floor: how closely a request matches a skill that is not the one it needs/);
    expect(text).toMatch(/a request is routed only when its best skill matches it better than that\)/);
    expect(text).toContain("70% of 40 requests held out of their skills ranked their own first");
    expect(text).toMatch(/\(a request held out: one of a skill's example requests, taken out of its manifest and routed as a user's;/);
    expect(text).toMatch(/the share scale softens every confidence when such requests often rank another skill first\)/);
  });
});
