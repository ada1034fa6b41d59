import { describe, expect, it } from "vitest";
import type { ExpansionSubject } from "../../src/expand/expansion-subject.js";
import type { ManifestWriter } from "../../src/expand/manifest-source.js";
import { manifestSchema } from "../../src/expand/manifest.js";

export interface SourceCase {
  name: string;
  /** A fresh source (sources may hold state: a cache, a notice list). */
  create: () => Promise<ManifestWriter> | ManifestWriter;
  /** A skill this source has a manifest for. */
  claimed: ExpansionSubject;
  /** A skill it has nothing for; undefined for a source that claims every skill (the heuristic). */
  unclaimed?: ExpansionSubject;
}

/** The suite every manifest source passes (like Hono's shared router tests): one contract, many sources. */
export function describeManifestSourceConformance(suite: SourceCase): void {
  describe(`${suite.name} manifest source conformance`, () => {
    it("claims the skill it has a manifest for, with the same version every time", async () => {
      const source = await suite.create();
      const claim = source.claim(suite.claimed);
      expect(claim?.version).toEqual(expect.any(String));
      expect(source.claim(suite.claimed)).toEqual(claim);
    });

    it.runIf(suite.unclaimed !== undefined)("passes over a skill it has nothing for", async () => {
      expect((await suite.create()).claim(suite.unclaimed!)).toBeUndefined();
    });

    it("writes a complete manifest that fits the stored schema, the same one every time", async () => {
      const source = await suite.create();
      const claim = source.claim(suite.claimed)!;
      const first = await source.write(suite.claimed, claim);
      if (!("manifest" in first)) throw new Error(`no manifest: ${first.failed}`);
      expect(manifestSchema.safeParse(first.manifest).success).toBe(true);
      expect(first.manifest.queries.length).toBeGreaterThan(0);
      const second = await source.write(suite.claimed, claim);
      expect(second).toMatchObject({ manifest: first.manifest });
    });
  });
}
