import { z } from "zod";
import type { EvalCase } from "./eval-set.js";
import { parseJsonAs } from "./read-json-file.js";

/** Anthropic skill-creator's `evals/trigger-evals.json`: queries that should, or should not, trigger one skill. */
const triggerEvalSchema = z.array(z.object({ query: z.string().min(1), should_trigger: z.boolean() }));

export type TriggerEval = z.infer<typeof triggerEvalSchema>;

export function isTriggerEval(json: unknown): boolean {
  return Array.isArray(json) && json.length > 0 && json.every((item) => typeof item === "object" && item !== null && "should_trigger" in item);
}

/** Parses a trigger-eval file's JSON; errors name the file and the first problem. */
export function parseTriggerEval(json: unknown, file: string): TriggerEval {
  return parseJsonAs(triggerEvalSchema, json, file, "a trigger-eval file");
}

/** should_trigger true -> expected = the skill; false -> expected = null (must not trigger THAT skill, see trigger-view.ts). */
export function triggerCases(evals: TriggerEval, skill: string): EvalCase[] {
  return evals.map((item) => ({ query: item.query, expected: item.should_trigger ? skill : null }));
}
