import { z } from "zod";
import { manifestSchema } from "../store/manifest-schema.js";
import type { Manifest } from "../store/records.js";
import { uniqueTexts } from "./terms.js";

const text = z.string().trim().min(1);

export { manifestSchema } from "../store/manifest-schema.js";
export type { Manifest, ManifestSource, StoredManifest } from "../store/records.js";

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

/** An LLM's answer: the manifest with every field filled and the lists within the sizes. */
export const llmManifestSchema = manifestSchema.extend({
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

// Strict mode takes a subset of JSON Schema (no minItems, minLength, $schema, ...); kept in this order, the schema
// reads as before it was derived, so PROMPT_VERSION, which hashes it, and the manifests cached under it stay valid.
type JsonSchema = Record<string, unknown>;
const STRICT_MODE_KEYWORDS = ["type", "items", "properties", "description", "required", "additionalProperties"];

/**
 * The JSON schema sent as `response_format` (OpenAI structured outputs, strict mode), derived from the manifest
 * schema with only the keywords every OpenAI-compatible server accepts: the sizes are asked for in the prompt and
 * checked by `llmManifestSchema`.
 */
export const MANIFEST_JSON_SCHEMA = strictModeSchema(z.toJSONSchema(manifestSchema));

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

function strictModeSchema(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(
    STRICT_MODE_KEYWORDS.filter((keyword) => keyword in schema).map((keyword) => {
      const value = schema[keyword];
      if (keyword === "items") return [keyword, strictModeSchema(value as JsonSchema)];
      if (keyword === "properties") return [keyword, Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([name, field]) => [name, strictModeSchema(field)]))];
      return [keyword, value];
    }),
  );
}
