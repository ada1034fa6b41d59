import { supportingFilesNote } from "../store/skill-location.js";

// The text the router hands an agent to inject, as the index stores it: token counts and the content hash use it.

/** A skill's instructions, plus its supporting files; the folder stays unnamed until served (store/skill-location.ts). */
export function skillInjection(body: string, files: string[]): string {
  return body.trim() + supportingFilesNote(files);
}

/** A tool's definition as the agent's tool list would carry it. */
export function toolInjection(definition: unknown): string {
  return JSON.stringify(definition, null, 2);
}
