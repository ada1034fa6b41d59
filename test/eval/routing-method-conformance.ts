import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RoutingMethod } from "../../bench/methods/routing-method.js";

export interface RoutingMethodCase {
  name: string;
  /** Made once per suite over the fixture skills of eval-fixture.ts. */
  create: () => Promise<RoutingMethod>;
}

const OBVIOUS = { query: "kubectl says my kubernetes pod is in CrashLoopBackOff", skill: "k8s-debug" };

/** The contract every routing method of the benchmark keeps, baselines and router alike. */
export function describeRoutingMethodConformance(suite: RoutingMethodCase): void {
  describe(`${suite.name} routing method conformance`, () => {
    let method: RoutingMethod;
    beforeAll(async () => {
      method = await suite.create();
    });
    afterAll(() => method.close());

    it("ranks the obvious skill first", async () => {
      expect((await method.route(OBVIOUS.query)).ranked[0]).toBe(OBVIOUS.skill);
    });

    it("ranks only among the candidates when given", async () => {
      const candidates = ["pdf-extract", "git-commit"];
      const answer = await method.route(OBVIOUS.query, candidates);
      expect(answer.ranked.every((name) => candidates.includes(name))).toBe(true);
      expect(answer.selected.every((name) => candidates.includes(name))).toBe(true);
    });

    it("ranks at most 10 skills, each once, and injects only its best", async () => {
      for (const query of [OBVIOUS.query, "zzqx vvbnm qqwhrt", ""]) {
        const answer = await method.route(query);
        expect(answer.ranked.length).toBeLessThanOrEqual(10);
        expect(new Set(answer.ranked).size).toBe(answer.ranked.length);
        expect(answer.selected).toEqual(answer.decision === "inject" ? [answer.ranked[0]] : []);
      }
    });

    it("gives the same answer every time", async () => {
      const first = await method.route("convert 100 dollars to euros");
      const second = await method.route("convert 100 dollars to euros");
      expect({ ...second, embedMs: 0 }).toEqual({ ...first, embedMs: 0 });
    });
  });
}
