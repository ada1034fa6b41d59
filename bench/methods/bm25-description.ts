import type { EvalCase } from "../../src/eval/eval-set.js";
import { readableName } from "../../src/text/readable-name.js";
import { plainBm25 } from "../plain-bm25.js";
import type { RoutingMethod } from "./routing-method.js";
import { scoreRouter } from "./score-router.js";

export interface DescribedSkill {
  name: string;
  description: string;
}

/** (b) BM25 over each skill's name and description only, as agent platforms' BM25 tool search does. */
export async function bm25Description(skills: DescribedSkill[], train: EvalCase[]): Promise<RoutingMethod> {
  const index = plainBm25(skills.map((skill) => `${readableName(skill.name)}\n${skill.description}`));
  const score = async (query: string) => ({ scores: index.scores(query), embedMs: 0 });
  return scoreRouter(
    skills.map((skill) => skill.name),
    score,
    train,
    async () => {},
  );
}
