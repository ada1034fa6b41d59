import { z } from "zod";
import type { Manifest } from "../store/records.js";
import { uniqueTexts } from "./terms.js";

const text = z.string().trim().min(1);

export type { Manifest, ManifestSource, StoredManifest } from "../store/records.js";

/** The stored manifest shape (store/records.ts), checked: every source must fill it. */
export const manifestSchema = z.object({
  /** Natural user requests this skill answers (about 20, varied; some never name the skill or its tool). */
  queries: z.array(text).min(1),
  /** Technical terms, synonyms and abbreviations (10 to 20). */
  keywords: z.array(text),
  /** Short action or problem phrases (about 10). */
  phrases: z.array(text),
  /** Near-miss requests that look related but belong elsewhere (5 to 10). */
  negatives: z.array(text),
  /** One line: what the skill is NOT for. */
  negative_constraint: z.string(),
  category: z.string(),
}) satisfies z.ZodType<Manifest>;

// What an LLM must deliver, after repeats are removed: the issue's sizes, with some slack below the asked-for counts.
const MANIFEST_SIZES = {
  queries: { min: 10, max: 25 },
  keywords: { min: 5, max: 25 },
  phrases: { min: 3, max: 15 },
  negatives: { min: 3, max: 12 },
} as const;
// A "query" longer than this is a paragraph, not something a user types into a chat.
const MAX_ITEM_CHARS = 300;

type ListField = keyof typeof MANIFEST_SIZES;
const LIST_FIELDS = Object.keys(MANIFEST_SIZES) as ListField[];

/** An LLM's answer: every field present, lists within the sizes. */
export const llmManifestSchema = z.object({
  queries: sized("queries"),
  keywords: sized("keywords"),
  phrases: sized("phrases"),
  negatives: sized("negatives"),
  negative_constraint: text,
  category: text,
});

function sized(field: ListField) {
  return z.array(text).min(MANIFEST_SIZES[field].min);
}

/** A manifest written by a person or imported: any subset of the fields; the rest is filled in from elsewhere. */
export const partialManifestSchema = manifestSchema.partial().strict();
export type PartialManifest = z.infer<typeof partialManifestSchema>;

/**
 * The JSON schema sent as `response_format` (OpenAI structured outputs, strict mode): only the keywords every
 * OpenAI-compatible server accepts; the sizes are asked for in the prompt and checked by `llmManifestSchema`.
 */
export const MANIFEST_JSON_SCHEMA = {
  type: "object",
  properties: {
    queries: { type: "array", items: { type: "string" }, description: "about 20 distinct natural user requests" },
    keywords: { type: "array", items: { type: "string" }, description: "10 to 20 technical terms, synonyms, abbreviations" },
    phrases: { type: "array", items: { type: "string" }, description: "about 10 short action or problem phrases" },
    negatives: { type: "array", items: { type: "string" }, description: "5 to 10 near-miss requests that belong elsewhere" },
    negative_constraint: { type: "string", description: "one line: what this skill is not for" },
    category: { type: "string", description: "a short lower-case domain label" },
  },
  required: ["queries", "keywords", "phrases", "negatives", "negative_constraint", "category"],
  additionalProperties: false,
} as const;

/** Lists trimmed, without repeats or over-long items, and cut to their maximum size; other fields as given. */
export function tidyManifest<T extends PartialManifest>(manifest: T): T {
  const tidy: PartialManifest = { ...manifest };
  for (const field of LIST_FIELDS) {
    const list = manifest[field];
    if (list) tidy[field] = uniqueTexts(list.filter((item) => item.length <= MAX_ITEM_CHARS)).slice(0, MANIFEST_SIZES[field].max);
  }
  if (tidy.negative_constraint !== undefined) tidy.negative_constraint = tidy.negative_constraint.replace(/\s+/g, " ").trim();
  if (tidy.category !== undefined) tidy.category = tidy.category.trim().toLowerCase();
  return tidy as T;
}

/** A partial manifest completed field by field from another one; a manifest never ends up without queries. */
export function completeManifest(partial: PartialManifest, fallback: Manifest): Manifest {
  const merged = { ...fallback, ...partial };
  return { ...merged, queries: merged.queries.length > 0 ? merged.queries : fallback.queries };
}

/** Zod issues as one short line a person can act on: "queries: Too small: expected array to have >=10 items". */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 4)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`)
    .join("; ");
}
