import { createHash } from "node:crypto";
import type { ScannedSkill } from "./types.js";

/**
 * sha256 over everything that changes routing or injection; the same skill always hashes the same. Risk flags are
 * part of it only when there are some: a release whose rules flag a skill anew (or no longer) updates just that
 * skill's row, and every unflagged skill keeps the hash it had, and its manifest and vectors.
 */
export function contentHash(skill: ScannedSkill): string {
  const hash = createHash("sha256");
  const parts = [skill.kind, skill.format, skill.name, skill.description, skill.injection, JSON.stringify(skill.metadata), ...(skill.risks.length > 0 ? [JSON.stringify(skill.risks)] : [])];
  for (const part of parts) {
    hash.update(part);
    hash.update("\u0000");
  }
  return hash.digest("hex");
}

/** Stable id: kind and name are unique within an index, so the id survives edits and moves. */
export function skillId(kind: string, name: string): string {
  return createHash("sha256").update(`${kind}:${name}`).digest("hex").slice(0, 16);
}
