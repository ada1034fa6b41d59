import { isRecord } from "../skills/json-document.js";
import type { ImportedManifest } from "./expand-skills.js";
import { readCompletion } from "./manifest-answer.js";
import { describeIssues, partialManifestSchema, tidyManifest } from "./manifest.js";
import { parseCustomId } from "./request-lines.js";

export interface ResponseLines {
  /** By skill name (or skill id, for long names), the later line winning. */
  imports: Map<string, ImportedManifest>;
  /** Lines that could not be used, each with its number and reason. */
  problems: string[];
}

/**
 * Reads `router expand --import` lines, in either shape:
 * - an OpenAI Batch API output line: `{"custom_id", "response": {"status_code", "body": <chat completion>}, "error"}`;
 * - a simple line from any LLM or person: `{"name" or "custom_id", "manifest": {...}}` (any subset of the fields).
 */
export function readResponseLines(text: string, source: string): ResponseLines {
  const result: ResponseLines = { imports: new Map(), problems: [] };
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === "") return;
    const origin = `${source} line ${index + 1}`;
    const outcome = readLine(line, origin);
    if ("problem" in outcome) {
      result.problems.push(`${origin}: ${outcome.problem}`);
      return;
    }
    if (result.imports.has(outcome.key)) result.problems.push(`${origin}: a second manifest for "${outcome.key}"; this later one is used`);
    result.imports.set(outcome.key, outcome.imported);
  });
  return result;
}

function readLine(line: string, origin: string): { key: string; imported: ImportedManifest } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { problem: `not JSON (${(error as Error).message})` };
  }
  if (!isRecord(value)) return { problem: "not a JSON object" };
  const named = typeof value["name"] === "string" ? { key: value["name"] } : typeof value["custom_id"] === "string" ? parseCustomId(value["custom_id"]) : undefined;
  if (!named) return { problem: 'no "name" or "custom_id" to say which skill it is for' };
  const label = `"${named.key}"`;

  if ("manifest" in value) {
    const parsed = partialManifestSchema.safeParse(value["manifest"]);
    if (!parsed.success) return { problem: `${label}: the manifest does not fit the schema (${describeIssues(parsed.error)})` };
    if (Object.keys(parsed.data).length === 0) return { problem: `${label}: the manifest is empty` };
    return { key: named.key, imported: { manifest: tidyManifest(parsed.data), hashPrefix: named.hashPrefix, origin } };
  }
  if ("response" in value || "error" in value) {
    const response = isRecord(value["response"]) ? value["response"] : undefined;
    if (value["error"] || !response) return { problem: `${label}: the request failed (${JSON.stringify(value["error"] ?? "no response").slice(0, 200)})` };
    if (response["status_code"] !== 200) return { problem: `${label}: the request failed with HTTP ${String(response["status_code"])}` };
    const body = isRecord(response["body"]) && Array.isArray(response["body"]["choices"]) ? response["body"] : undefined;
    if (!body) return { problem: `${label}: the response has no chat completion body` };
    const answer = readCompletion(body as Parameters<typeof readCompletion>[0]);
    if (!answer.ok) return { problem: `${label}: ${answer.problem}` };
    return { key: named.key, imported: { manifest: answer.manifest, hashPrefix: named.hashPrefix, origin } };
  }
  return { problem: `${label}: neither a batch response line ("response") nor a manifest line ("manifest")` };
}
