import { z } from "zod";

const text = z.string().trim().min(1);

/**
 * A skill's routing manifest: the words users will actually type. Queries and negatives are embedded as separate
 * kinds of text; negatives are never mixed into the positive side (bi-encoders cannot read "not"). Every source (a
 * person, example queries, an LLM, the heuristic) must fill it. The descriptions are what an LLM writing one is told:
 * expand/manifest.ts derives the JSON schema of its answer from this one.
 */
export const manifestSchema = z.object({
  /** Natural user requests this skill answers (about 20, varied; some never name the skill or its tool). */
  queries: z.array(text).min(1).describe("about 20 distinct natural user requests"),
  /** Technical terms, synonyms and abbreviations (10 to 20). */
  keywords: z.array(text).describe("10 to 20 technical terms, synonyms, abbreviations"),
  /** Short action or problem phrases (about 10). */
  phrases: z.array(text).describe("about 10 short action or problem phrases"),
  /** Near-miss requests that look related but belong elsewhere (5 to 10). */
  negatives: z.array(text).describe("5 to 10 near-miss requests that belong elsewhere"),
  /** One line: what the skill is NOT for. */
  negative_constraint: z.string().describe("one line: what this skill is not for"),
  category: z.string().describe("a short lower-case domain label"),
});
