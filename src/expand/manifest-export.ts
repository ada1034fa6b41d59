import { stringify } from "yaml";
import { MANIFEST_FILE_NAME } from "../skills/manifest-file.js";
import { skillTextHash, type SkillText } from "../store/skill-text.js";
import type { StoredManifest } from "./manifest.js";

/**
 * A stored manifest as a reviewable YAML file, in the hand-written manifest format: saved beside the skill as
 * router-manifest.yaml, it pins that manifest.
 */
export function manifestYaml(skill: SkillText, stored: StoredManifest): string {
  const pin =
    skill.kind === "tool"
      ? `# To pin it, put these fields under "${skill.name}:" in <tool file>.${MANIFEST_FILE_NAME} beside the tool file.`
      : `# To pin it, save this file as ${MANIFEST_FILE_NAME} beside the skill's SKILL.md.`;
  const header = [`# Routing manifest of ${skill.name} (source: ${stored.source}, text hash ${skillTextHash(skill).slice(0, 12)})`, pin];
  return `${header.join("\n")}\n${stringify(stored.manifest, { lineWidth: 0 })}`;
}

/** A file name for a skill's manifest that is safe on every file system and unique within `taken`. */
export function manifestFileName(name: string, taken: Set<string>): string {
  const stem = name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^\.+/, "_") || "skill";
  let candidate = `${stem}.yaml`;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem}-${n}.yaml`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
