import { createError } from "../errors.js";

const LISTED = 20;

/** Throws UNKNOWN_SKILLS, naming (the first twenty of) the names the index does not hold. */
export function requireKnownSkills(names: Iterable<string>, isKnown: (name: string) => boolean): void {
  const unknown = [...new Set(names)].filter((name) => !isKnown(name));
  if (unknown.length === 0) return;
  const more = unknown.length > LISTED ? `, and ${unknown.length - LISTED} more` : "";
  throw createError("UNKNOWN_SKILLS", `Not in the index: ${unknown.slice(0, LISTED).join(", ")}${more}`, { unknown });
}
