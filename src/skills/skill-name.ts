import { SKILL_NAME_MAX } from "./validate.js";

/**
 * A name made into a skill name: lowercase ASCII letters and digits joined by single hyphens, accents
 * dropped, at most SKILL_NAME_MAX characters. Empty when nothing is left (a name in another script).
 */
export function skillSlug(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, SKILL_NAME_MAX)
    .replace(/-+$/, "");
}

/**
 * The name a skill routes under when its `name` breaks the naming rule (`problem` says how): a slug of the
 * name, or of its folder when the name has nothing to keep. Agents load such skills, so the router does too.
 */
export function repairedSkillName(name: unknown, folderName: string, problem: string): { name: string; warning: string } | { error: string } {
  if ((typeof name !== "string" && typeof name !== "number") || name === "") return { error: problem };
  const fromName = skillSlug(String(name));
  const fromFolder = skillSlug(folderName);
  if (fromName !== "") return { name: fromName, warning: `${problem}; routed as "${fromName}"` };
  if (fromFolder !== "") return { name: fromFolder, warning: `${problem}; it has no letters or digits to keep, so routed as its folder "${fromFolder}"` };
  return { error: `${problem}; neither it nor its folder "${folderName}" can be made into a skill name` };
}

/** The routing name from a `name` field checked by `problemOf`: as written, repaired (lenient) or an error. */
export function readSkillName(value: unknown, folderName: string, problemOf: (name: unknown) => string | undefined, strict: boolean, errors: string[], warnings: string[]): string {
  const problem = problemOf(value);
  if (problem === undefined) return value as string;
  const repaired = strict ? { error: problem } : repairedSkillName(value, folderName, problem);
  if ("error" in repaired) errors.push(repaired.error);
  else warnings.push(repaired.warning);
  return "name" in repaired ? repaired.name : "";
}
