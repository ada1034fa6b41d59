import { explicitOnlyReason } from "./explicit-only.js";
import { splitFrontmatter } from "./frontmatter.js";
import { skillInjection } from "./injection.js";
import { checkDescription, readOptionalFields, supportingFiles } from "./skill-fields.js";
import { readSkillName, skillSlug } from "./skill-name.js";
import { SKILL_DESCRIPTION_MAX, SKILL_NAME_MAX, toolNameProblem } from "./validate.js";
import type { ParseOptions, ParseResult, SkillDocument, SkillParser } from "./types.js";

const MODULE_FILE = /^modules\/[^/]+\/module\.json$/;

/** Lowercase `skill.md` folders: frontmatter optional, name from the folder, description from the first paragraph. */
export const skillMdParser: SkillParser = {
  name: "skill-md",
  accepts: (fileName) => fileName === "skill.md",
  parse(document: SkillDocument, options: ParseOptions = {}): ParseResult {
    const strict = options.strict ?? false;
    const frontmatter = splitFrontmatter(document.text, !strict);
    if ("reason" in frontmatter) return { skills: [], problems: [{ file: document.path, reason: frontmatter.reason }] };
    const data = frontmatter.data ?? {};
    const body = frontmatter.body.trim();
    const errors: string[] = [];
    const warnings = [...frontmatter.warnings];

    const name = readSkillName(data["name"] ?? skillSlug(document.folderName), document.folderName, skillMdNameProblem, strict, errors, warnings);
    const description = data["description"] ?? firstParagraph(body);
    if (data["description"] === undefined && description === undefined) errors.push("no description: add a 'description' field or a first paragraph");
    else checkDescription(description, strict, errors, warnings);
    const metadata = readOptionalFields(data, strict, errors, warnings);
    if (errors.length > 0) return { skills: [], problems: [{ file: document.path, reason: errors.join("; ") }] };

    const files = supportingFiles(document.files);
    if (files.length > 0) metadata.supportingFiles = files;
    const modules = document.files.filter((file) => MODULE_FILE.test(file));
    if (modules.length > 0) metadata.modules = modules;
    const explicitOnly = explicitOnlyReason(data, description as string, body);
    if (explicitOnly) metadata.explicitOnly = explicitOnly;
    return {
      skills: [
        {
          name,
          kind: "skill",
          format: "skill-md",
          description: (description as string).trim(),
          body,
          injection: skillInjection(body, [...files, ...modules]),
          sourcePath: document.path,
          metadata,
          warnings,
        },
      ],
      problems: [],
    };
  },
};

/** skill.md names are looser than SKILL.md names: any identifier without whitespace, as tool names. */
function skillMdNameProblem(name: unknown): string | undefined {
  return toolNameProblem(name) ?? (typeof name === "string" && name.length > SKILL_NAME_MAX ? `'name' is longer than ${SKILL_NAME_MAX} characters` : undefined);
}

/** The first paragraph of prose (not a heading, list marker or fence), cut to the description limit at a word. */
function firstParagraph(body: string): string | undefined {
  for (const block of body.split(/\r?\n\s*\r?\n/)) {
    const text = block
      .split(/\r?\n/)
      .filter((line) => !line.trimStart().startsWith("#"))
      .join("\n")
      .trim();
    if (text === "" || text.startsWith("```") || text.startsWith("<!--")) continue;
    const prose = text.replace(/\s+/g, " ");
    if (prose.length <= SKILL_DESCRIPTION_MAX) return prose;
    return prose.slice(0, prose.lastIndexOf(" ", SKILL_DESCRIPTION_MAX - 1)).trimEnd();
  }
  return undefined;
}
