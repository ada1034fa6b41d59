import { createHash } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { measureShareScale } from "../../src/calibrate/measure-share-scale.js";
import { runIndex } from "../../src/indexer/run-index.js";
import { createEmbedder } from "../../src/models/create-embedder.js";
import { queryEncoderOver } from "../../src/models/query-encoder.js";
import { DEFAULT_PARAMS, paramsFor } from "../../src/route/index-params.js";
import { shareScaleRecord } from "../../src/store/share-scale.js";
import { createRouter } from "../../src/route/router.js";
import { openIndexForRead, openIndexForWrite, type IndexDatabase } from "../../src/store/database.js";
import { DOMAINS } from "../helpers/domains.js";
import { tempDir, writeFile } from "../helpers/fixtures.js";

/** An eval-set file of the domains, each skill's middle request taken from `middle(index)`. */
function writeSet(dir: string, middle: (index: number) => string): string {
  const skills = DOMAINS.map(([name, description, queries], index) => ({ name, description, queries: [queries[0]!, middle(index), queries[2]!] }));
  return writeFile(path.join(dir, "set.json"), JSON.stringify({ name: "domains", skills, cases: [] }));
}

/** Everything routing reads of an index, hashed: texts, vectors, manifests and routing data. */
function indexContents(db: IndexDatabase): string {
  const hash = createHash("sha256");
  for (const table of ["texts", "skill_vectors", "manifests", "routing_data"]) hash.update(JSON.stringify(db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all()));
  return hash.digest("hex");
}

describe("the share scale router index measures on requests held out of their skills", () => {
  it("is measured with no labels, stored in the index and applied to the defaults", async () => {
    const dir = tempDir("share-scale-");
    const db = path.join(dir, "router.db");
    const summary = await runIndex({ paths: [writeSet(dir, (index) => DOMAINS[index]![2][1]!)], db });
    expect(summary.shareScale).toBeDefined();
    const { scale, samples, rankedFirst } = summary.shareScale!;
    expect(samples).toBe(24);
    // Each held-out request is plainly its own domain's.
    expect(rankedFirst).toBeGreaterThan(0.9);
    expect(scale).toBeGreaterThanOrEqual(0.3);
    expect(scale).toBeLessThanOrEqual(1);
    const index = openIndexForRead(db);
    expect(shareScaleRecord.read(index)).toEqual({ scale, samples, rankedFirst, indexVersion: summary.indexVersion });
    expect(paramsFor(index, summary.embedder ?? null).shareScale).toBe(scale);
    index.close();
  });

  it("holds each request out for real, and leaves the index as it was", async () => {
    const dir = tempDir("share-scale-");
    const db = path.join(dir, "router.db");
    // Every skill's middle request is the next domain's: held out, it must rank that other skill first.
    await runIndex({ paths: [writeSet(dir, (index) => DOMAINS[(index + 1) % DOMAINS.length]![2][1]!)], db });
    const writer = openIndexForWrite(db);
    const embedder = await createEmbedder();
    try {
      const before = indexContents(writer);
      const measured = await measureShareScale(writer, queryEncoderOver(embedder, 100), DEFAULT_PARAMS);
      expect(measured!.rankedFirst).toBeLessThan(0.2);
      // Shares that put the wrong skill first are most likely when flattest.
      expect(measured!.scale).toBe(0.3);
      expect(indexContents(writer)).toBe(before);
    } finally {
      await embedder.close();
      writer.close();
    }
  });

  it("flattens the confidences of the index's defaults, and only theirs", async () => {
    const dir = tempDir("share-scale-");
    const db = path.join(dir, "router.db");
    await runIndex({ paths: [writeSet(dir, (index) => DOMAINS[index]![2][1]!)], db });
    const query = "is it going to rain in Porto this afternoon";
    const shareWith = async (scale: number, params?: typeof DEFAULT_PARAMS) => {
      const writer = openIndexForWrite(db);
      shareScaleRecord.write(writer, { scale, samples: 24, rankedFirst: 1, indexVersion: 1 });
      writer.close();
      const router = await createRouter({ db, ...(params ? { params } : {}) });
      try {
        const [best] = (await router.route(query)).skills;
        expect(best!.name).toBe("weather-forecast");
        return best!.share;
      } finally {
        await router.close();
      }
    };
    expect(await shareWith(0.5)).toBeLessThan(await shareWith(1));
    // Parameters given explicitly (as `router fit` stores them) keep their own shares.
    expect(await shareWith(0.5, DEFAULT_PARAMS)).toBe(await shareWith(1, DEFAULT_PARAMS));
  });
});
