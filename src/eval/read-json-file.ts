import { readFileSync } from "node:fs";
import type { z } from "zod";
import { createError } from "../errors.js";

/** A JSON file's value; an unreadable or malformed file is a usage error naming the file. */
export function readJsonFile(file: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw createError("INVALID_ARGUMENT", `Cannot read ${what} ${file}: ${(error as Error).message}`, { file });
  }
}

/** A JSON value checked against a schema; a mismatch is a usage error naming the file and the first problem. */
export function parseJsonAs<T>(schema: z.ZodType<T>, json: unknown, file: string, what: string): T {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw createError("INVALID_ARGUMENT", `${file} is not ${what}: ${issue.path.join(".")}: ${issue.message}`, { file });
  }
  return parsed.data;
}
