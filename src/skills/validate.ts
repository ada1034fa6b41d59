// Field rules of the Agent Skills specification (agentskills.io), plus our bounds for tool definitions. Plain functions:
// as zod schemas with the same messages they took 32 lines against 23; skills/eval-set-schema.ts wraps them for zod.
export const SKILL_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SKILL_NAME_MAX = 64;
export const SKILL_DESCRIPTION_MAX = 1024;
export const COMPATIBILITY_MAX = 500;
// MCP sets no limit on tool descriptions; real servers write several kilobytes, so the bound is generous.
export const TOOL_DESCRIPTION_MAX = 16_384;
export const TOOL_NAME_MAX = 128;

/** Returns why a value is not a valid Agent Skills name, or undefined when it is. */
export function skillNameProblem(name: unknown): string | undefined {
  if (name === undefined || name === null || name === "") return "missing required field 'name'";
  if (typeof name !== "string") return `'name' must be a string, got ${typeof name}`;
  if (name.length > SKILL_NAME_MAX) return `'name' is ${name.length} characters, the limit is ${SKILL_NAME_MAX}`;
  if (!SKILL_NAME_PATTERN.test(name)) return `'name' "${name}" must be lowercase letters, digits and single hyphens (${SKILL_NAME_PATTERN.source})`;
  return undefined;
}

/** Returns why a value is not a valid description, or undefined when it is. */
export function descriptionProblem(description: unknown, max: number): string | undefined {
  if (description === undefined || description === null) return "missing required field 'description'";
  if (typeof description !== "string") return `'description' must be a string, got ${typeof description}`;
  if (description.trim() === "") return "'description' is empty";
  if (description.length > max) return `'description' is ${description.length} characters, the limit is ${max}`;
  return undefined;
}

/** Returns why a tool name is unusable, or undefined when it is fine. */
export function toolNameProblem(name: unknown): string | undefined {
  if (name === undefined || name === null || name === "") return "missing required field 'name'";
  if (typeof name !== "string") return `'name' must be a string, got ${typeof name}`;
  if (name.length > TOOL_NAME_MAX) return `'name' is ${name.length} characters, the limit is ${TOOL_NAME_MAX}`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a tool name must not hold
  if (/[\s\u0000-\u001f]/.test(name)) return `'name' "${name}" contains whitespace or control characters`;
  return undefined;
}
