import type { SkillDocument } from "./types.js";

export type JsonRead = { ok: true; value: unknown } | { ok: false; reason: string };

// Several JSON parsers may look at one document; a tool dump can be megabytes, so parse it once.
const parsedDocuments = new WeakMap<SkillDocument, JsonRead>();

/** Parses a JSON document (once); the reason names the position JSON.parse reports. */
export function readJson(document: SkillDocument): JsonRead {
  let read = parsedDocuments.get(document);
  if (!read) {
    try {
      read = { ok: true, value: JSON.parse(document.text.startsWith("\uFEFF") ? document.text.slice(1) : document.text) };
    } catch (error) {
      read = { ok: false, reason: `malformed JSON: ${(error as Error).message}` };
    }
    parsedDocuments.set(document, read);
  }
  return read;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The file name without folders and without the .json extension. */
export function fileStem(documentPath: string): string {
  const base = documentPath.slice(documentPath.lastIndexOf("/") + 1);
  return base.replace(/\.json$/i, "");
}
