import { readFileSync } from "node:fs";
import { createError } from "../errors.js";

/** A JSON file's value; an unreadable or malformed file is a usage error naming the file. */
export function readJsonFile(file: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw createError("INVALID_ARGUMENT", `Cannot read ${what} ${file}: ${(error as Error).message}`, { file });
  }
}
