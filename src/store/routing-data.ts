import type { IndexDatabase } from "./database.js";

/**
 * What routing reads whole, written once per index run so that loading an index version builds nothing: typed
 * arrays stored as they lie in memory, with a JSON header naming them (and any small JSON values beside them).
 */
export interface RoutingData {
  arrays: Record<string, Float32Array | Int32Array | Uint32Array | Uint8Array>;
  values: Record<string, unknown>;
}

type ArrayKind = "f32" | "i32" | "u32" | "u8";
const KINDS: Record<ArrayKind, { bytes: number; make: (length: number) => Float32Array | Int32Array | Uint32Array | Uint8Array }> = {
  f32: { bytes: 4, make: (length) => new Float32Array(length) },
  i32: { bytes: 4, make: (length) => new Int32Array(length) },
  u32: { bytes: 4, make: (length) => new Uint32Array(length) },
  u8: { bytes: 1, make: (length) => new Uint8Array(length) },
};
// Arrays are stored in parts of this size: reading one part is short enough to leave the event loop free between parts.
const PART_BYTES = 1 << 20;

interface Header {
  layout: { name: string; kind: ArrayKind; length: number }[];
  values: Record<string, unknown>;
}

/** Replaces the data stored under `name`: part 0 is the header, then each array in parts of at most PART_BYTES. */
export function writeRoutingData(db: IndexDatabase, name: string, data: RoutingData): void {
  db.prepare("DELETE FROM routing_data WHERE name = ?").run(name);
  const insert = db.prepare("INSERT INTO routing_data (name, part, data) VALUES (?, ?, ?)");
  const header: Header = { layout: [], values: data.values };
  let part = 1;
  for (const [key, array] of Object.entries(data.arrays)) {
    header.layout.push({ name: key, kind: kindOf(array), length: array.length });
    const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
    for (let start = 0; start < bytes.length; start += PART_BYTES) insert.run(name, part++, bytes.subarray(start, start + PART_BYTES));
  }
  insert.run(name, 0, Buffer.from(JSON.stringify(header)));
}

/** The JSON values stored under `name` (no array is read), or undefined when there is no such data. */
export function readRoutingDataValues(db: IndexDatabase, name: string): Record<string, unknown> | undefined {
  const head = db.prepare("SELECT data FROM routing_data WHERE name = ? AND part = 0").pluck().get(name) as Buffer | undefined;
  return head ? (JSON.parse(head.toString("utf8")) as Header).values : undefined;
}

/** Where the caller wants an array read: a view of exactly `length` values of its kind, or undefined for a new array. */
export type ArrayTarget = (name: string, length: number) => RoutingData["arrays"][string] | undefined;

/**
 * The data stored under `name`, or undefined; `pause` is awaited between parts (a reload yields to requests). An
 * array for which `into` gives a view is read straight into it (no second copy while a version loads).
 */
export async function readRoutingData(db: IndexDatabase, name: string, pause: () => Promise<void> | undefined, into?: ArrayTarget): Promise<RoutingData | undefined> {
  const select = db.prepare("SELECT data FROM routing_data WHERE name = ? AND part = ?").pluck();
  const head = select.get(name, 0) as Buffer | undefined;
  if (!head) return undefined;
  const { layout, values } = JSON.parse(head.toString("utf8")) as Header;
  const arrays: RoutingData["arrays"] = {};
  let part = 1;
  for (const entry of layout) {
    const target = into?.(entry.name, entry.length);
    const array = target && kindOf(target) === entry.kind && target.length === entry.length ? target : KINDS[entry.kind].make(entry.length);
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let filled = 0; filled < bytes.length; filled += PART_BYTES) {
      await pause();
      bytes.set(select.get(name, part++) as Buffer, filled);
    }
    arrays[entry.name] = array;
  }
  return { arrays, values };
}

function kindOf(array: RoutingData["arrays"][string]): ArrayKind {
  if (array instanceof Float32Array) return "f32";
  if (array instanceof Int32Array) return "i32";
  return array instanceof Uint32Array ? "u32" : "u8";
}
