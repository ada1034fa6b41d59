import path from "node:path";
import { parse as parseYaml } from "yaml";
import { sizeAgainstLimit } from "./decode-text.js";
import { isRecord } from "./json-document.js";
import { MAX_MANIFEST_FILE_BYTES, MAX_NESTING_DEPTH } from "./limits.js";
import { bracketDepth } from "./nesting-depth.js";
import { readRegularFile, refusalReason } from "./read-regular-file.js";
import type { FoundFile, ParsedSkill, SkillDocument } from "./types.js";

/** A hand-written routing manifest beside a skill folder's SKILL.md / skill.md; it overrides the generated one. */
export const MANIFEST_FILE_NAME = "router-manifest.yaml";

/** Beside a tool file `tools.json`: `tools.router-manifest.yaml`, a mapping from tool name to manifest. */
export function toolManifestFileName(jsonFile: string): string {
  return `${path.basename(jsonFile).replace(/\.json$/i, "")}.${MANIFEST_FILE_NAME}`;
}

/** Reads a manifest file discovery found; a file too large to be a manifest is a problem. */
export async function readManifestFile({ file, target }: FoundFile): Promise<{ file: string; text: string } | { problem: string } | undefined> {
  try {
    const read = await readRegularFile(target ?? file, MAX_MANIFEST_FILE_BYTES);
    if (!("refused" in read)) return { file: path.basename(file), text: read.content.toString("utf8") };
    if ("size" in read) return { problem: `${path.basename(file)} is ${sizeAgainstLimit(read.size, MAX_MANIFEST_FILE_BYTES)}; ignored` };
    return { problem: `${path.basename(file)} is ${refusalReason(read.refused)}; ignored` };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return { problem: `cannot read ${path.basename(file)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); ignored` };
  }
}

/**
 * Attaches the document's hand-written manifest to its skills' metadata, so it is part of their content hash
 * (an edit triggers a new expansion). The content is checked against the manifest schema at expansion time.
 * A folder's file is the manifest itself; a tool file's maps tool names (routing name or own name) to manifests.
 * Returns warnings about the file.
 */
export function attachManifestFile(skills: ParsedSkill[], document: SkillDocument, layout: "folder" | "tools"): string[] {
  const manifestFile = document.manifestFile;
  if (!manifestFile || skills.length === 0) return [];
  let content: unknown;
  // The YAML parser recurses per level: thousands of nested brackets exhaust its stack, or memory.
  if (bracketDepth(manifestFile.text, MAX_NESTING_DEPTH, false) > MAX_NESTING_DEPTH) return [`${manifestFile.file}: nests deeper than ${MAX_NESTING_DEPTH} levels; ignored`];
  try {
    content = parseYaml(manifestFile.text);
  } catch (error) {
    return [`${manifestFile.file}: malformed YAML (${(error as Error).message.split("\n")[0]}); ignored`];
  }
  if (!isRecord(content)) return [`${manifestFile.file}: expected a mapping of manifest fields; ignored`];
  if (layout === "folder") return attachTo(skills[0]!, manifestFile.file, content);
  const used = new Set<string>();
  const warnings: string[] = [];
  for (const skill of skills) {
    const key = [skill.name, skill.metadata.toolName].find((name) => name !== undefined && name in content);
    if (key === undefined) continue;
    used.add(key);
    warnings.push(...attachTo(skill, manifestFile.file, content[key]));
  }
  return [
    ...warnings,
    ...Object.keys(content)
      .filter((key) => !used.has(key))
      .map((key) => `${manifestFile.file}: no tool named "${key}" in ${path.basename(document.path)}; entry ignored`),
  ];
}

/**
 * A skill's manifest entry: its `trigger` (explicit: only when a request calls it by name; auto: the router decides,
 * whatever its prose says) is the skill's own, the rest is the manifest.
 */
function attachTo(skill: ParsedSkill, file: string, entry: unknown): string[] {
  if (!isRecord(entry) || !("trigger" in entry)) {
    skill.metadata.manifestFile = { file, content: entry };
    return [];
  }
  const { trigger, ...manifest } = entry;
  // A file that only sets the trigger leaves the manifest to the expanders.
  if (Object.keys(manifest).length > 0) skill.metadata.manifestFile = { file, content: manifest };
  if (trigger === "explicit") skill.metadata.explicitOnly = `${file} says trigger: explicit`;
  else if (trigger === "auto") delete skill.metadata.explicitOnly;
  else return [`${file}: trigger must be explicit or auto, got ${JSON.stringify(trigger)}; ignored`];
  return [];
}
