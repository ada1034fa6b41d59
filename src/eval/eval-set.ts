import { evalSetSchema, type EvalSet } from "../skills/eval-set-schema.js";
import { parseJsonAs, readJsonFile } from "./read-json-file.js";

export type { EvalCase, EvalSet } from "../skills/eval-set-schema.js";

/** Reads and validates an eval-set file; errors name the file and the first problem. */
export function readEvalSet(file: string): EvalSet {
  return parseEvalSet(readJsonFile(file, "eval set"), file);
}

export function parseEvalSet(json: unknown, file: string): EvalSet {
  return parseJsonAs(evalSetSchema, json, file, "an eval set");
}
