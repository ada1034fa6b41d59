import { createHash } from "node:crypto";
import { riskRulesVersion } from "./risk-rules-version.js";
import type { ParsedSkill } from "./types.js";

/** sha256 of a file's text, hashed once for all the skills it holds (a tool file may hold thousands). */
export function documentHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The key a skill's risk flags are stored under: everything riskFlagsOf reads (the skill's format, the name it is
 * found by in its file, its injection, and the file's text by `documentHash`) and the rules' version. Equal keys mean
 * equal flags, so an index run reuses the flags stored under a key and reads only the skills with a new one.
 */
export function riskKey(skill: ParsedSkill, fileHash: string): string {
  const hash = createHash("sha256");
  for (const part of [riskRulesVersion(), skill.format, skill.metadata.toolName ?? skill.name, skill.injection, fileHash]) {
    hash.update(part);
    hash.update("\u0000");
  }
  return hash.digest("hex");
}
