import { evalSkillSchema, type EvalSkill } from "./eval-set-schema.js";
import { toolInjection } from "./injection.js";
import { isRecord, readJson } from "./json-document.js";
import type { ParsedSkill, ParseResult, SkillDocument, SkillParser } from "./types.js";

/**
 * Labelled evaluation sets (../shared/eval format): `{"skills": [{name, description, queries?, parameters?}],
 * "cases": [...]}`. Indexing one makes its skills routable; their example queries can serve as manifests. Each skill
 * is checked on its own (a bad one is a problem, the others are indexed); `router eval` checks the whole file.
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
      const parsed = evalSkillSchema.safeParse(entry);
      if (parsed.success) result.skills.push(evalSkill(parsed.data, file));
      else result.problems.push({ file, reason: parsed.error.issues[0]!.message });
    });
    return result;
  },
};

function evalSkill({ name, description, queries = [], parameters }: EvalSkill, file: string): ParsedSkill {
  const trimmed = description.trim();
  const injection = parameters ? toolInjection({ name, description: trimmed, parameters }) : trimmed;
  return {
    name,
    kind: parameters ? "tool" : "skill",
    format: "eval-set",
    description: trimmed,
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
