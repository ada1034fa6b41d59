// The exact text the router hands an agent to inject; token counts and `router show` use the same text.

/** A skill's instructions, plus where its supporting files live so the agent can open them. */
export function skillInjection(body: string, folderPath: string, files: string[]): string {
  const instructions = body.trim();
  if (files.length === 0) return instructions;
  const listing = files.map((file) => `- ${file}`).join("\n");
  return `${instructions}\n\nSupporting files (relative to ${folderPath}):\n${listing}`;
}

/** A tool's definition as the agent's tool list would carry it. */
export function toolInjection(definition: unknown): string {
  return JSON.stringify(definition, null, 2);
}
