import { COMPATIBILITY_MAX, descriptionProblem, SKILL_DESCRIPTION_MAX } from "./validate.js";
import type { SkillMetadata } from "./types.js";

const SUPPORTING_FOLDERS = ["scripts/", "references/", "assets/"];

/**
 * Checks a skill description: missing, not text or empty is an error; over SKILL_DESCRIPTION_MAX is an
 * error when strict, else kept whole with a warning (real skills run longer and agents load them).
 */
export function checkDescription(description: unknown, strict: boolean, errors: string[], warnings: string[]): void {
  const problem = descriptionProblem(description, strict ? SKILL_DESCRIPTION_MAX : Number.POSITIVE_INFINITY);
  if (problem) errors.push(problem);
  else if ((description as string).length > SKILL_DESCRIPTION_MAX) {
    warnings.push(`'description' is ${(description as string).length} characters, over the Agent Skills limit of ${SKILL_DESCRIPTION_MAX}; indexed in full`);
  }
}

/**
 * Reads the optional Agent Skills fields shared by SKILL.md and skill.md.
 * Pushes a reason to `errors` for a field that breaks the spec and cannot be used, and to `warnings` for one
 * we repair. Unless strict, a field of the wrong YAML type is repaired too (written as text, with a warning).
 */
export function readOptionalFields(data: Record<string, unknown>, strict: boolean, errors: string[], warnings: string[]): SkillMetadata {
  const metadata: SkillMetadata = {};
  const repair = (field: string, rule: string): boolean => {
    if (strict) errors.push(`'${field}' ${rule}`);
    else warnings.push(`'${field}' ${rule}; kept as text`);
    return !strict;
  };
  const license = data["license"];
  if (license !== undefined && license !== null) {
    if (typeof license === "string") metadata.license = license;
    else if (repair("license", `must be a string, got ${yamlType(license)}`)) metadata.license = asText(license);
  }
  const compatibility = data["compatibility"];
  if (compatibility !== undefined && compatibility !== null) {
    const usable = typeof compatibility === "string" || repair("compatibility", `must be a string, got ${yamlType(compatibility)}`);
    const text = asText(compatibility);
    if (usable && text.length > COMPATIBILITY_MAX) {
      if (strict) errors.push(`'compatibility' is ${text.length} characters, the limit is ${COMPATIBILITY_MAX}`);
      else warnings.push(`'compatibility' is ${text.length} characters, over the Agent Skills limit of ${COMPATIBILITY_MAX}; kept whole`);
    }
    if (usable) metadata.compatibility = text;
  }
  const extra = data["metadata"];
  if (extra !== undefined && extra !== null) {
    if (typeof extra === "object" && !Array.isArray(extra)) {
      const entries = Object.entries(extra as Record<string, unknown>);
      if (entries.some(([, value]) => typeof value !== "string")) warnings.push("'metadata' values should be strings; others were converted");
      metadata.metadata = Object.fromEntries(entries.map(([key, value]) => [key, asText(value)]));
    } else if (repair("metadata", `must be a mapping of string keys to string values, got ${yamlType(extra)}`)) metadata.metadata = { value: asText(extra) };
  }
  const allowedTools = data["allowed-tools"];
  if (allowedTools !== undefined && allowedTools !== null) {
    // The spec says space-delimited; Claude Code writes comma-separated lists and YAML sequences, so accept all three.
    if (typeof allowedTools === "string") metadata.allowedTools = allowedTools.split(/[\s,]+/).filter(Boolean);
    else if (Array.isArray(allowedTools) && allowedTools.every((tool) => typeof tool === "string")) metadata.allowedTools = allowedTools;
    else if (strict) errors.push("'allowed-tools' must be a space-delimited string or a list of strings");
    else warnings.push(`'allowed-tools' must be a space-delimited string or a list of strings, got ${yamlType(allowedTools)}; ignored`);
  }
  return metadata;
}

/** A YAML value as text: strings as they are, anything else as JSON. */
function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function yamlType(value: unknown): string {
  return Array.isArray(value) ? "a list" : value === null ? "null" : typeof value === "object" ? "a mapping" : `a ${typeof value}`;
}

/** Supporting files of a skill folder: everything under scripts/, references/ and assets/. */
export function supportingFiles(files: string[]): string[] {
  return files.filter((file) => SUPPORTING_FOLDERS.some((folder) => file.startsWith(folder)));
}
