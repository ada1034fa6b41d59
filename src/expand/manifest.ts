import { z } from "zod";

/**
 * A skill's routing manifest: the words users will actually type. Queries and negatives are embedded as
 * separate kinds of text; negatives are never mixed into the positive side (bi-encoders cannot read "not").
 */
export const manifestSchema = z.object({
  /** Natural user requests this skill answers (about 20, varied; some never name the skill or its tool). */
  queries: z.array(z.string().trim().min(1)).min(1),
  /** Technical terms, synonyms and abbreviations (10 to 20). */
  keywords: z.array(z.string().trim().min(1)),
  /** Short action or problem phrases (about 10). */
  phrases: z.array(z.string().trim().min(1)),
  /** Near-miss requests that look related but belong elsewhere (5 to 10). */
  negatives: z.array(z.string().trim().min(1)),
  /** One line: what the skill is NOT for. */
  negative_constraint: z.string(),
  category: z.string(),
});

export type Manifest = z.infer<typeof manifestSchema>;

/** Where a stored manifest came from, in order of precedence. */
export type ManifestSource = "file" | "examples" | "llm" | "heuristic";

export interface StoredManifest {
  source: ManifestSource;
  manifest: Manifest;
}
