import type { ChatCompletion } from "openai/resources/chat/completions";
import { isRecord } from "../skills/json-document.js";
import { describeIssues, llmManifestSchema, manifestSchema, tidyManifest, type Manifest } from "./manifest.js";

export type ManifestAnswer = { ok: true; manifest: Manifest } | { ok: false; problem: string };

/** An LLM's chat completion read as a manifest, or the reason it is unusable (empty, truncated, refused, not JSON, off schema). */
export function readCompletion(completion: Pick<ChatCompletion, "choices">): ManifestAnswer {
  const choice = completion.choices?.[0];
  if (!choice) return { ok: false, problem: "empty answer (no choices)" };
  if (choice.finish_reason === "length") return { ok: false, problem: "truncated answer (finish_reason: length)" };
  if (choice.message?.refusal) return { ok: false, problem: `the model refused: ${choice.message.refusal.slice(0, 200)}` };
  return readManifestContent(choice.message?.content ?? "");
}

/** The text of an answer read as a manifest: JSON (fences and chatter around it tolerated), tidied, then sized. */
function readManifestContent(content: string): ManifestAnswer {
  const text = content.trim();
  if (text === "") return { ok: false, problem: "empty answer" };
  const value = parseJsonObject(text);
  if (value === undefined) return { ok: false, problem: `not JSON: ${JSON.stringify(text.slice(0, 80))}${text.length > 80 ? "..." : ""}` };
  const shaped = manifestSchema.safeParse(unwrap(value));
  if (!shaped.success) return { ok: false, problem: `breaks the manifest schema: ${describeIssues(shaped.error)}` };
  const sized = llmManifestSchema.safeParse(tidyManifest(shaped.data));
  if (!sized.success) return { ok: false, problem: `breaks the manifest schema: ${describeIssues(sized.error)}` };
  return { ok: true, manifest: sized.data };
}

function parseJsonObject(text: string): unknown {
  for (const candidate of [text, text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)]) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (isRecord(value)) return value;
    } catch {
      // A model in JSON mode may still wrap the object in a code fence or a sentence: try the braces next.
    }
  }
  return undefined;
}

/** `{"manifest": {...}}` -> `{...}`: small models like to wrap the object they were asked for. */
function unwrap(value: unknown): unknown {
  const entries = Object.entries(value as Record<string, unknown>);
  const [only] = entries;
  return entries.length === 1 && typeof only![1] === "object" && only![1] !== null && "queries" in only![1] ? only![1] : value;
}
