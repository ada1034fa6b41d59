import { explicitOnlyReason } from "./explicit-only.js";
import { splitFrontmatter } from "./frontmatter.js";
import { skillInjection } from "./injection.js";
import { checkDescription, readOptionalFields, supportingFiles } from "./skill-fields.js";
import { readSkillName } from "./skill-name.js";
import { skillNameProblem } from "./validate.js";
import type { ParseOptions, ParseResult, SkillDocument, SkillParser } from "./types.js";

/**
 * Agent Skills `SKILL.md`: required YAML frontmatter with name and description, validated as the spec says.
 * Unless strict, what agents load although it breaks the spec is indexed with a warning (see ParseOptions).
 */
export const agentSkillParser: SkillParser = {
  name: "agent-skill",
  accepts: (fileName) => fileName === "SKILL.md",
  parse(document: SkillDocument, options: ParseOptions = {}): ParseResult {
    const strict = options.strict ?? false;
    const frontmatter = splitFrontmatter(document.text, !strict);
    if ("reason" in frontmatter) return { skills: [], problems: [{ file: document.path, reason: frontmatter.reason }] };
    if (!frontmatter.data) {
      return { skills: [], problems: [{ file: document.path, reason: "missing YAML frontmatter (a --- block with name and description)" }] };
    }
    const data = frontmatter.data;
    const errors: string[] = [];
    const warnings = [...frontmatter.warnings];
    const name = readSkillName(data["name"], document.folderName, skillNameProblem, strict, errors, warnings);
    checkDescription(data["description"], strict, errors, warnings);
    const metadata = readOptionalFields(data, strict, errors, warnings);
    if (errors.length > 0) return { skills: [], problems: [{ file: document.path, reason: errors.join("; ") }] };

    if (name !== document.folderName) warnings.push(`name "${name}" does not match its folder "${document.folderName}"`);
    const files = supportingFiles(document.files);
    if (files.length > 0) metadata.supportingFiles = files;
    const body = frontmatter.body.trim();
    const explicitOnly = explicitOnlyReason(data, data["description"] as string, body);
    if (explicitOnly) metadata.explicitOnly = explicitOnly;
    return {
      skills: [
        {
          name,
          kind: "skill",
          format: "agent-skill",
          description: (data["description"] as string).trim(),
          body,
          injection: skillInjection(body, files),
          sourcePath: document.path,
          metadata,
          warnings,
        },
      ],
      problems: [],
    };
  },
};
