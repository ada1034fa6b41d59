import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { EvalSet } from "../src/eval/eval-set.js";

/**
 * A copy of an eval set without the skills' example queries (same skills, same cases), so the router sees
 * only what the heuristic expander makes of each description: the "no expansion" side of the comparison.
 */
export function stripExamples(set: EvalSet, file: string, dir: string): string {
  const stripped = { ...set, skills: set.skills?.map(({ queries: _queries, ...skill }) => skill) };
  mkdirSync(dir, { recursive: true });
  const target = path.join(dir, `${path.basename(file, ".json")}-noexamples.json`);
  writeFileSync(target, JSON.stringify(stripped));
  return target;
}
