import { createHash } from "node:crypto";
import type { ParsedSkill } from "./types.js";

/** sha256 over everything that changes routing or injection; the same skill always hashes the same. */
export function contentHash(skill: ParsedSkill): string {
  const hash = createHash("sha256");
  for (const part of [skill.kind, skill.format, skill.name, skill.description, skill.injection, JSON.stringify(skill.metadata)]) {
    hash.update(part);
    hash.update("\u0000");
  }
  return hash.digest("hex");
}

/** Stable id: kind and name are unique within an index, so the id survives edits and moves. */
export function skillId(kind: string, name: string): string {
  return createHash("sha256").update(`${kind}:${name}`).digest("hex").slice(0, 16);
}
