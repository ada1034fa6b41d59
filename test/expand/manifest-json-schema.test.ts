import { describe, expect, it } from "vitest";
import { llmManifestSchema, MANIFEST_JSON_SCHEMA, manifestSchema } from "../../src/expand/manifest.js";

// What OpenAI structured outputs take in strict mode: every property required, none other allowed, and only these keywords.
const STRICT_MODE_KEYWORDS = new Set(["type", "items", "properties", "description", "required", "additionalProperties"]);

function keywordsOf(schema: unknown): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const { properties, items } = schema as Record<string, unknown>;
  return [...Object.keys(schema), ...Object.values((properties ?? {}) as Record<string, unknown>).flatMap(keywordsOf), ...keywordsOf(items)];
}

describe("the JSON schema an LLM answers in", () => {
  it("is the manifest schema's fields, every one required, in strict mode's keywords only", () => {
    const fields = Object.keys(manifestSchema.shape);
    expect(MANIFEST_JSON_SCHEMA).toMatchObject({ type: "object", required: fields, additionalProperties: false });
    expect(Object.keys(MANIFEST_JSON_SCHEMA.properties as object)).toEqual(fields);
    expect(keywordsOf(MANIFEST_JSON_SCHEMA).filter((keyword) => !STRICT_MODE_KEYWORDS.has(keyword))).toEqual([]);
    expect((MANIFEST_JSON_SCHEMA.properties as Record<string, unknown>).queries).toEqual({ type: "array", items: { type: "string" }, description: "about 20 distinct natural user requests" });
  });

  it("checks an LLM's answer for the same fields the manifest has", () => {
    expect(Object.keys(llmManifestSchema.shape)).toEqual(Object.keys(manifestSchema.shape));
  });
});
