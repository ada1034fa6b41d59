import { parseEvalSet, type EvalSet } from "./eval-set.js";
import { readJsonFile } from "./read-json-file.js";
import { isTriggerEval, parseTriggerEval, type TriggerEval } from "./trigger-eval.js";

/** The two labelled formats `router eval` reads, told apart by shape: an object with `cases`, or an array of `should_trigger` items. */
export type EvalFile = { kind: "eval-set"; set: EvalSet } | { kind: "trigger-eval"; evals: TriggerEval };

export function readEvalFile(file: string): EvalFile {
  const json = readJsonFile(file, "eval file");
  return isTriggerEval(json) ? { kind: "trigger-eval", evals: parseTriggerEval(json, file) } : { kind: "eval-set", set: parseEvalSet(json, file) };
}
