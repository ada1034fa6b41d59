import { describe, expect, it } from "vitest";
import type { RouteQuery } from "../../src/route/query.js";
import type { Retriever } from "../../src/route/retriever.js";
import type { RouteModel } from "../../src/route/route-model.js";

export interface RetrieverCase {
  name: string;
  /** The model the retriever is built over (loaded by the caller, once). */
  model: () => RouteModel;
  create: (model: RouteModel) => Retriever;
  query: (text: string) => Promise<RouteQuery>;
  /** A query and the skill it must put first. */
  obvious: { text: string; skill: string };
  /** What it finds for words no skill has: nothing when it matches words, the nearest skills when it matches meaning. */
  unknownWords: "nothing" | "nearest";
}

/** The suite every retriever passes (like Hono's shared router tests): one contract, many strategies. */
export function describeRetrieverConformance(suite: RetrieverCase): void {
  describe(`${suite.name} retriever conformance`, () => {
    it("puts the obvious skill first", async () => {
      const model = suite.model();
      const hits = suite.create(model).retrieve(await suite.query(suite.obvious.text), 3);
      expect(model.skills[hits[0]!.skill]!.name).toBe(suite.obvious.skill);
    });

    it("returns at most `limit` skills, best first, each once: the head of its longer answer", async () => {
      const model = suite.model();
      const query = await suite.query(suite.obvious.text);
      const retriever = suite.create(model);
      const hits = retriever.retrieve(query, 2);
      const longer = retriever.retrieve(query, 10);
      expect(hits.length).toBe(Math.min(2, longer.length));
      expect(hits).toEqual(longer.slice(0, 2));
      expect(new Set(longer.map((hit) => hit.skill)).size).toBe(longer.length);
      for (let i = 1; i < longer.length; i++) expect(longer[i - 1]!.score).toBeGreaterThanOrEqual(longer[i]!.score);
    });

    it("returns only allowed skills", async () => {
      const model = suite.model();
      const target = model.byName.get(suite.obvious.skill)!;
      const hits = suite.create(model).retrieve(await suite.query(suite.obvious.text), 10, (skill) => skill !== target);
      expect(hits.map((hit) => hit.skill)).not.toContain(target);
    });

    it("gives the same answer every time", async () => {
      const model = suite.model();
      const query = await suite.query(suite.obvious.text);
      const retriever = suite.create(model);
      expect(retriever.retrieve(query, 5)).toEqual(retriever.retrieve(query, 5));
    });

    it("copes with a query of no known words", async () => {
      const model = suite.model();
      const hits = suite.create(model).retrieve(await suite.query("zzqx vvbnm"), 5);
      if (suite.unknownWords === "nothing") expect(hits).toEqual([]);
      else {
        expect(hits).toHaveLength(Math.min(5, model.skills.length));
        for (const hit of hits) expect([Number.isFinite(hit.score), hit.skill >= 0 && hit.skill < model.skills.length]).toEqual([true, true]);
      }
    });
  });
}
