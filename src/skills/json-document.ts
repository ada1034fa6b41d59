import { MAX_NESTING_DEPTH } from "./limits.js";
import { bracketDepth } from "./nesting-depth.js";
import type { SkillDocument } from "./types.js";

export type JsonRead = { ok: true; value: unknown } | { ok: false; reason: string };

// Several JSON parsers may look at one document; a tool dump can be megabytes, so parse it once.
const parsedDocuments = new WeakMap<SkillDocument, JsonRead>();

/** Parses a JSON document (once); the reason names the position JSON.parse reports, or the nesting limit. */
export function readJson(document: SkillDocument): JsonRead {
  let read = parsedDocuments.get(document);
  if (!read) {
    read = parseBoundedJson(document.text.startsWith("\uFEFF") ? document.text.slice(1) : document.text);
    parsedDocuments.set(document, read);
  }
  return read;
}

/** Every walk over a parsed document (injection text, content hash, the store) is then bounded too. */
function parseBoundedJson(text: string): JsonRead {
  if (bracketDepth(text, MAX_NESTING_DEPTH, true) > MAX_NESTING_DEPTH) {
    return { ok: false, reason: `JSON nests deeper than ${MAX_NESTING_DEPTH} levels (the limit for tool definitions); not read` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `malformed JSON: ${(error as Error).message}` };
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The file name without folders and without the .json extension. */
export function fileStem(documentPath: string): string {
  const base = documentPath.slice(documentPath.lastIndexOf("/") + 1);
  return base.replace(/\.json$/i, "");
}
