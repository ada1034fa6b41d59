import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openIndexForRead, openIndexForWrite } from "../../src/store/database.js";
import { routingPart } from "../../src/store/routing-data.js";
import { tempDir } from "../helpers/fixtures.js";

const part = routingPart("demo", 1, { weights: "f32", ids: "i32" }, z.object({ names: z.array(z.string()) }));
const noPause = () => undefined;

/** A fresh index file holding `write`'s data. */
function indexWith(write: (db: ReturnType<typeof openIndexForWrite>) => void): string {
  const file = path.join(tempDir(), "index.db");
  const db = openIndexForWrite(file);
  try {
    write(db);
  } finally {
    db.close();
  }
  return file;
}

async function readBack(file: string, codec = part) {
  const db = openIndexForRead(file);
  try {
    return await codec.read(db, noPause);
  } finally {
    db.close();
  }
}

describe("a routing-data part's codec", () => {
  it("reads back what it wrote, typed, in pieces of any size", async () => {
    const weights = Float32Array.from({ length: 300_000 }, (_, i) => i / 7);
    const file = indexWith((db) => part.write(db, { arrays: { weights, ids: Int32Array.of(3, 1, 2) }, values: { names: ["a", "b"] } }));
    const data = await readBack(file);
    // Compared as bytes: 300,000 values element by element take seconds in the matcher.
    expect(Buffer.from(data.arrays.weights.buffer).equals(Buffer.from(weights.buffer))).toBe(true);
    expect(Array.from(data.arrays.ids)).toEqual([3, 1, 2]);
    expect(data.values.names).toEqual(["a", "b"]);
  });

  it("says INDEX_OUTDATED for a part that is absent or in another format", async () => {
    const file = indexWith(() => {});
    await expect(readBack(file)).rejects.toMatchObject({ code: "INDEX_OUTDATED" });
    const older = routingPart("demo", 0, { weights: "f32", ids: "i32" }, z.object({ names: z.array(z.string()) }));
    const written = indexWith((db) => older.write(db, { arrays: { weights: new Float32Array(2), ids: new Int32Array(2) }, values: { names: [] } }));
    await expect(readBack(written)).rejects.toMatchObject({ code: "INDEX_OUTDATED" });
  });

  it("says INDEX_CORRUPT for an array missing, of another kind, or cut short, and for values of another shape", async () => {
    const writeAs = (layout: Record<string, "f32" | "i32" | "u8">, arrays: Record<string, Float32Array | Int32Array | Uint8Array>, values: unknown) =>
      indexWith((db) => routingPart("demo", 1, layout, z.any()).write(db, { arrays, values }));
    const missing = writeAs({ weights: "f32" }, { weights: new Float32Array(3) }, { names: [] });
    await expect(readBack(missing)).rejects.toMatchObject({ code: "INDEX_CORRUPT", message: expect.stringContaining('no array "ids"') });
    const otherKind = writeAs({ weights: "f32", ids: "u8" }, { weights: new Float32Array(3), ids: new Uint8Array(3) }, { names: [] });
    await expect(readBack(otherKind)).rejects.toMatchObject({ code: "INDEX_CORRUPT" });
    const badValues = writeAs({ weights: "f32", ids: "i32" }, { weights: new Float32Array(3), ids: new Int32Array(3) }, { names: "a" });
    await expect(readBack(badValues)).rejects.toMatchObject({ code: "INDEX_CORRUPT" });
    const cut = writeAs({ weights: "f32", ids: "i32" }, { weights: new Float32Array(3), ids: new Int32Array(3) }, { names: [] });
    const db = openIndexForWrite(cut);
    db.prepare("DELETE FROM routing_data WHERE name = 'demo' AND part = 2").run();
    db.close();
    await expect(readBack(cut)).rejects.toMatchObject({ code: "INDEX_CORRUPT", message: expect.stringContaining('"ids"') });
  });
});
