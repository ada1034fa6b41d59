import { z } from "zod";
import { parseJsonAs, readJsonFile } from "./read-json-file.js";

/** The labelled evaluation-set format of ../shared/eval (see its README.md). */
const evalSetSchema = z.object({
  name: z.string().optional(),
  skills: z.array(z.object({ name: z.string().min(1), description: z.string(), queries: z.array(z.string()).optional(), parameters: z.unknown().optional() })).optional(),
  cases: z.array(z.object({ query: z.string().refine((query) => query.trim() !== "", "a case's query is empty"), expected: z.string().nullable(), candidates: z.array(z.string()).optional() })),
});

export type EvalSet = z.infer<typeof evalSetSchema>;
export type EvalCase = EvalSet["cases"][number];

/** Reads and validates an eval-set file; errors name the file and the first problem. */
export function readEvalSet(file: string): EvalSet {
  return parseEvalSet(readJsonFile(file, "eval set"), file);
}

export function parseEvalSet(json: unknown, file: string): EvalSet {
  return parseJsonAs(evalSetSchema, json, file, "an eval set");
}
