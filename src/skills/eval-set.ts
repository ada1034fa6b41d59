import { toolInjection } from "./injection.js";
import { isRecord, readJson } from "./json-document.js";
import { descriptionProblem, TOOL_DESCRIPTION_MAX, toolNameProblem } from "./validate.js";
import type { ParsedSkill, ParseResult, SkillDocument, SkillParser } from "./types.js";

/**
 * Labelled evaluation sets (../shared/eval format): `{"skills": [{name, description, queries?, parameters?}],
 * "cases": [...]}`. Indexing one makes its skills routable; their example queries can serve as manifests.
 */
export const evalSetParser: SkillParser = {
  name: "eval-set",
  accepts: (fileName) => fileName.toLowerCase().endsWith(".json"),
  parse(document: SkillDocument): ParseResult {
    const json = readJson(document);
    if (!json.ok) return { skills: [], problems: [{ file: document.path, reason: json.reason }] };
    const set = json.value;
    if (!isRecord(set) || !Array.isArray(set["skills"]) || !Array.isArray(set["cases"])) {
      return { skills: [], problems: [], unrecognised: "not an evaluation set" };
    }
    const result: ParseResult = { skills: [], problems: [] };
    set["skills"].forEach((entry: unknown, index: number) => {
      const file = `${document.path}#/skills/${index}`;
      if (!isRecord(entry)) {
        result.problems.push({ file, reason: "skill entry is not a JSON object" });
        return;
      }
      const reason = toolNameProblem(entry["name"]) ?? descriptionProblem(entry["description"], TOOL_DESCRIPTION_MAX);
      if (reason) {
        result.problems.push({ file, reason });
        return;
      }
      result.skills.push(evalSkill(entry, file));
    });
    return result;
  },
};

function evalSkill(entry: Record<string, unknown>, file: string): ParsedSkill {
  const name = entry["name"] as string;
  const description = (entry["description"] as string).trim();
  const queries = Array.isArray(entry["queries"]) ? entry["queries"].filter((query): query is string => typeof query === "string") : [];
  const parameters = isRecord(entry["parameters"]) ? entry["parameters"] : undefined;
  const injection = parameters ? toolInjection({ name, description, parameters }) : description;
  return {
    name,
    kind: parameters ? "tool" : "skill",
    format: "eval-set",
    description,
    body: injection,
    injection,
    sourcePath: file,
    metadata: {
      ...(queries.length > 0 ? { exampleQueries: queries } : {}),
      ...(parameters ? { parameters, toolName: name } : {}),
    },
    warnings: [],
  };
}
