import type { z } from "zod";
import { createError } from "../errors.js";
import type { IndexDatabase } from "./database.js";

/**
 * What routing reads whole, written once per index run so that loading an index version builds nothing: typed
 * arrays stored as they lie in memory, with a JSON header naming them (and any small JSON values beside them). Each
 * part has one codec (`routingPart`), shared by its writer (`router index`) and its reader (the query path).
 */
type ArrayKinds = { f32: Float32Array; i32: Int32Array; u32: Uint32Array; u8: Uint8Array };
type ArrayKind = keyof ArrayKinds;
type AnyArray = ArrayKinds[ArrayKind];

/** The arrays a part holds, each of one kind. */
export type PartLayout = Record<string, ArrayKind>;
export type PartArrays<L extends PartLayout> = { [K in keyof L]: ArrayKinds[L[K]] };
export interface PartData<L extends PartLayout, V> {
  arrays: PartArrays<L>;
  values: V;
}

/** Where the caller wants an array read: a view of exactly `length` values of its kind, or undefined for a new array. */
export type ArrayTarget = (name: string, length: number) => AnyArray | undefined;

/** One part of the routing data: its name, layout, format and values, as writer and reader both see them. */
export interface RoutingPart<L extends PartLayout, V> {
  name: string;
  /** Replaces the part's stored data. */
  write(db: IndexDatabase, data: PartData<L, V>): void;
  /**
   * Reads the part, `pause` awaited between stored pieces (a reload yields to requests); an array for which `into`
   * gives a view is read straight into it. Absent or in another format: INDEX_OUTDATED; a stored part that does not
   * hold its layout or values: INDEX_CORRUPT. Never a silent empty array.
   */
  read(db: IndexDatabase, pause: () => Promise<void> | undefined, into?: ArrayTarget): Promise<PartData<L, V>>;
  /** Whether the index holds this part in this release's format (an older release wrote another, or none). */
  isCurrent(db: IndexDatabase): boolean;
}

const MAKERS: { [K in ArrayKind]: (length: number) => ArrayKinds[K] } = {
  f32: (length) => new Float32Array(length),
  i32: (length) => new Int32Array(length),
  u32: (length) => new Uint32Array(length),
  u8: (length) => new Uint8Array(length),
};
// Arrays are stored in pieces of this size: reading one is short enough to leave the event loop free between pieces.
const PIECE_BYTES = 1 << 20;

interface Header {
  format?: number;
  layout: { name: string; kind: ArrayKind; length: number }[];
  values: unknown;
}

/** The codec of the part stored under `name`: `format` changes whenever its layout or meaning does. */
export function routingPart<L extends PartLayout, V>(name: string, format: number, layout: L, values: z.ZodType<V>): RoutingPart<L, V> {
  const outdated = () => createError("INDEX_OUTDATED", `The index has no routing data "${name}" in this release's format: run \`router index\` again`, { part: name });
  const corrupt = (reason: string) => createError("INDEX_CORRUPT", `The index's routing data "${name}" is damaged (${reason}): run \`router index\` again`, { part: name });
  const readHeader = (db: IndexDatabase): Header | undefined => {
    const head = db.prepare("SELECT data FROM routing_data WHERE name = ? AND part = 0").pluck().get(name) as Buffer | undefined;
    return head ? (JSON.parse(head.toString("utf8")) as Header) : undefined;
  };
  return {
    name,
    write(db, data) {
      db.prepare("DELETE FROM routing_data WHERE name = ?").run(name);
      const insert = db.prepare("INSERT INTO routing_data (name, part, data) VALUES (?, ?, ?)");
      const header: Header = { format, layout: [], values: values.parse(data.values) };
      let piece = 1;
      for (const key of Object.keys(layout)) {
        const array = data.arrays[key] as AnyArray;
        header.layout.push({ name: key, kind: layout[key]!, length: array.length });
        const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
        for (let start = 0; start < bytes.length; start += PIECE_BYTES) insert.run(name, piece++, bytes.subarray(start, start + PIECE_BYTES));
      }
      insert.run(name, 0, Buffer.from(JSON.stringify(header)));
    },
    async read(db, pause, into) {
      const header = readHeader(db);
      if (header?.format !== format) throw outdated();
      const parsed = values.safeParse(header.values);
      if (!parsed.success) throw corrupt(`its values: ${parsed.error.issues[0]?.message ?? "invalid"}`);
      const select = db.prepare("SELECT data FROM routing_data WHERE name = ? AND part = ?").pluck();
      const arrays: Record<string, AnyArray> = {};
      let piece = 1;
      for (const entry of header.layout) {
        const target = into?.(entry.name, entry.length);
        const array = target && kindOf(target) === entry.kind && target.length === entry.length ? target : MAKERS[entry.kind](entry.length);
        const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
        for (let filled = 0; filled < bytes.length; filled += PIECE_BYTES) {
          await pause();
          const stored = select.get(name, piece++) as Buffer | undefined;
          if (!stored || filled + stored.length > bytes.length) throw corrupt(`array "${entry.name}" is cut short or too long`);
          bytes.set(stored, filled);
        }
        arrays[entry.name] = array;
      }
      for (const [key, kind] of Object.entries(layout)) {
        if (!arrays[key] || kindOf(arrays[key]) !== kind) throw corrupt(`no array "${key}" of ${kind}`);
      }
      return { arrays: arrays as PartArrays<L>, values: parsed.data };
    },
    isCurrent: (db) => readHeader(db)?.format === format,
  };
}

function kindOf(array: AnyArray): ArrayKind {
  if (array instanceof Float32Array) return "f32";
  if (array instanceof Int32Array) return "i32";
  return array instanceof Uint32Array ? "u32" : "u8";
}
