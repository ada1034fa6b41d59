import { createHash } from "node:crypto";
import type { SkillRecord } from "./records.js";

/** The fields of a skill an LLM reads to write its manifest (expand/expansion-prompt.ts shows them). */
export type SkillText = Pick<SkillRecord, "kind" | "name" | "description" | "body" | "metadata">;

/**
 * The key of a paid-for manifest (the manifest cache, the manifests table, exported requests): sha256 of the skill's
 * own text as the expansion prompt shows it, a tool's parameters in place of its body, Windows line endings read as
 * Unix ones (a checkout's setting, not the author's text). Nothing the router derives is in it (risk flags, the rules' or the router's version, the file format,
 * the injection, a hand-written manifest), so a manifest paid for outlives them; nor are the neighbouring skills the
 * prompt names, which change whenever any other skill is added or removed and only steer the negatives.
 */
export function skillTextHash(skill: SkillText): string {
  const toolName = skill.metadata.toolName !== undefined && skill.metadata.toolName !== skill.name ? skill.metadata.toolName : "";
  const content = skill.kind === "tool" ? (skill.metadata.parameters === undefined ? "" : JSON.stringify(skill.metadata.parameters)) : skill.body;
  const hash = createHash("sha256");
  for (const part of [skill.kind, skill.name, toolName, skill.description, content]) {
    // Only a text holding a carriage return is rewritten: a regular expression over every body costs more than the hash.
    hash.update(part.includes("\r") ? part.replace(/\r\n?/g, "\n") : part);
    hash.update("\u0000");
  }
  return hash.digest("hex");
}
