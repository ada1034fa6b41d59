import type { z } from "zod";
import { createError } from "../errors.js";
import type { IndexDatabase } from "./database.js";
import { deleteMetaValue, readMetaValue, writeMetaValue } from "./index-meta.js";

/** A JSON value of the meta table with one schema, shared by the code that writes it and the code that reads it. */
export interface MetaRecord<T> {
  /** The stored value, undefined when absent; one that does not fit the schema is INDEX_CORRUPT, never a silent default. */
  read(db: IndexDatabase): T | undefined;
  write(db: IndexDatabase, value: T): void;
  clear(db: IndexDatabase): void;
}

export function metaRecord<T>(key: string, schema: z.ZodType<T>): MetaRecord<T> {
  return {
    read(db) {
      const stored = readMetaValue(db, key);
      if (stored === undefined) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(stored);
      } catch {
        throw createError("INDEX_CORRUPT", `The index's "${key}" is not JSON: run \`router index\` again`, { key });
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) throw createError("INDEX_CORRUPT", `The index's "${key}" does not fit its schema (${parsed.error.issues[0]?.message ?? "invalid"}): run \`router index\` again`, { key });
      return parsed.data;
    },
    write: (db, value) => writeMetaValue(db, key, JSON.stringify(schema.parse(value))),
    clear: (db) => deleteMetaValue(db, key),
  };
}
