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
}

/** The suite every retriever passes (like Hono's shared router tests): one contract, many strategies. */
export function describeRetrieverConformance(suite: RetrieverCase): void {
  describe(`${suite.name} retriever conformance`, () => {
    it("puts the obvious skill first", async () => {
      const model = suite.model();
      const hits = suite.create(model).retrieve(await suite.query(suite.obvious.text), 3);
      expect(model.skills[hits[0]!.skill]!.name).toBe(suite.obvious.skill);
    });

    it("returns at most `limit` skills, best first, each once", async () => {
      const model = suite.model();
      const hits = suite.create(model).retrieve(await suite.query(suite.obvious.text), 2);
      expect(hits.length).toBeLessThanOrEqual(2);
      expect(new Set(hits.map((hit) => hit.skill)).size).toBe(hits.length);
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
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
      expect(hits.length).toBeLessThanOrEqual(5);
    });
  });
}
