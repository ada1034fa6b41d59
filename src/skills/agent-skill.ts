import { splitFrontmatter } from "./frontmatter.js";
import { skillInjection } from "./injection.js";
import { folderOf, readOptionalFields, supportingFiles } from "./skill-fields.js";
import { descriptionProblem, SKILL_DESCRIPTION_MAX, skillNameProblem } from "./validate.js";
import type { ParseResult, SkillDocument, SkillParser } from "./types.js";

/** Agent Skills `SKILL.md`: required YAML frontmatter with name and description, validated as the spec says. */
export const agentSkillParser: SkillParser = {
  name: "agent-skill",
  accepts: (fileName) => fileName === "SKILL.md",
  parse(document: SkillDocument): ParseResult {
    const frontmatter = splitFrontmatter(document.text);
    if ("reason" in frontmatter) return { skills: [], problems: [{ file: document.path, reason: frontmatter.reason }] };
    if (!frontmatter.data) {
      return { skills: [], problems: [{ file: document.path, reason: "missing YAML frontmatter (a --- block with name and description)" }] };
    }
    const data = frontmatter.data;
    const errors: string[] = [];
    const warnings: string[] = [];
    const nameError = skillNameProblem(data["name"]);
    if (nameError) errors.push(nameError);
    const descriptionError = descriptionProblem(data["description"], SKILL_DESCRIPTION_MAX);
    if (descriptionError) errors.push(descriptionError);
    const metadata = readOptionalFields(data, errors, warnings);
    if (errors.length > 0) return { skills: [], problems: [{ file: document.path, reason: errors.join("; ") }] };

    const name = data["name"] as string;
    if (name !== document.folderName) warnings.push(`name "${name}" does not match its folder "${document.folderName}"`);
    const files = supportingFiles(document.files);
    if (files.length > 0) metadata.supportingFiles = files;
    const body = frontmatter.body.trim();
    return {
      skills: [
        {
          name,
          kind: "skill",
          format: "agent-skill",
          description: (data["description"] as string).trim(),
          body,
          injection: skillInjection(body, folderOf(document.path), files),
          sourcePath: document.path,
          metadata,
          warnings,
        },
      ],
      problems: [],
    };
  },
};
