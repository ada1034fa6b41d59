import { COMPATIBILITY_MAX } from "./validate.js";
import type { SkillMetadata } from "./types.js";

const SUPPORTING_FOLDERS = ["scripts/", "references/", "assets/"];

/**
 * Reads the optional Agent Skills fields shared by SKILL.md and skill.md.
 * Pushes a reason to `errors` for a field that breaks the spec, and to `warnings` for one we can repair.
 */
export function readOptionalFields(data: Record<string, unknown>, errors: string[], warnings: string[]): SkillMetadata {
  const metadata: SkillMetadata = {};
  const license = data["license"];
  if (license !== undefined) {
    if (typeof license === "string") metadata.license = license;
    else errors.push("'license' must be a string");
  }
  const compatibility = data["compatibility"];
  if (compatibility !== undefined) {
    if (typeof compatibility !== "string") errors.push("'compatibility' must be a string");
    else if (compatibility.length > COMPATIBILITY_MAX)
      errors.push(`'compatibility' is ${compatibility.length} characters, the limit is ${COMPATIBILITY_MAX}`);
    else metadata.compatibility = compatibility;
  }
  const extra = data["metadata"];
  if (extra !== undefined && extra !== null) {
    if (typeof extra !== "object" || Array.isArray(extra)) errors.push("'metadata' must be a mapping of string keys to string values");
    else {
      const entries = Object.entries(extra as Record<string, unknown>);
      if (entries.some(([, value]) => typeof value !== "string")) warnings.push("'metadata' values should be strings; others were converted");
      metadata.metadata = Object.fromEntries(entries.map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]));
    }
  }
  const allowedTools = data["allowed-tools"];
  if (allowedTools !== undefined && allowedTools !== null) {
    // The spec says space-delimited; Claude Code writes comma-separated lists and YAML sequences, so accept all three.
    if (typeof allowedTools === "string") metadata.allowedTools = allowedTools.split(/[\s,]+/).filter(Boolean);
    else if (Array.isArray(allowedTools) && allowedTools.every((tool) => typeof tool === "string")) metadata.allowedTools = allowedTools;
    else errors.push("'allowed-tools' must be a space-delimited string or a list of strings");
  }
  return metadata;
}

/** Supporting files of a skill folder: everything under scripts/, references/ and assets/. */
export function supportingFiles(files: string[]): string[] {
  return files.filter((file) => SUPPORTING_FOLDERS.some((folder) => file.startsWith(folder)));
}

/** The folder a document lives in, as shown to people. */
export function folderOf(documentPath: string): string {
  const cut = documentPath.lastIndexOf("/");
  return cut > 0 ? documentPath.slice(0, cut) : documentPath;
}
