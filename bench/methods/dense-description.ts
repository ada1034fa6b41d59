import type { EvalCase } from "../../src/eval/eval-set.js";
import type { Embedder } from "../../src/models/embedder.js";
import { dotRow } from "../../src/models/vector-math.js";
import type { DescribedSkill } from "./bm25-description.js";
import type { RoutingMethod } from "./routing-method.js";
import { embeddingScoreRouter } from "./score-router.js";

/** (c) Cosine similarity to each skill's description embedding only, like the MiniLM skill searchers (claude-skills-mcp, mcp-tool-filter). */
export async function denseDescription(skills: DescribedSkill[], embedder: Embedder, train: EvalCase[]): Promise<RoutingMethod> {
  const dimension = embedder.dimension;
  const matrix = new Float32Array(skills.length * dimension);
  // An empty description (some MCP tools) leaves the name as the only text to match.
  (await embedder.embed(skills.map((skill) => skill.description || skill.name))).forEach((vector, row) => matrix.set(vector, row * dimension));
  return embeddingScoreRouter(
    skills.map((skill) => skill.name),
    embedder,
    train,
    (vector) => {
      const scores = new Float32Array(skills.length);
      for (let row = 0; row < skills.length; row++) scores[row] = dotRow(vector, matrix, row, dimension);
      return scores;
    },
  );
}
