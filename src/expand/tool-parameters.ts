import { isRecord } from "../skills/json-document.js";
import { readableName } from "../text/readable-name.js";

export interface ToolParameter {
  name: string;
  readableName: string;
  description: string;
  required: boolean;
  /** Short enum values ("celsius", "fahrenheit"): words a caller may type. */
  enumValues: string[];
}

const MAX_ENUM_VALUES = 8;
const MAX_ENUM_VALUE_LENGTH = 30;

/** The top-level parameters of a tool's argument schema (JSON Schema, or the BFCL "dict" dialect). */
export function toolParameters(schema: unknown): ToolParameter[] {
  if (!isRecord(schema) || !isRecord(schema["properties"])) return [];
  const required = new Set(Array.isArray(schema["required"]) ? schema["required"].filter((name): name is string => typeof name === "string") : []);
  return Object.entries(schema["properties"]).map(([name, property]) => {
    const spec = isRecord(property) ? property : {};
    const values = Array.isArray(spec["enum"]) ? spec["enum"] : [];
    return {
      name,
      readableName: readableName(name).toLowerCase(),
      description: typeof spec["description"] === "string" ? spec["description"].trim().replace(/\.$/, "") : "",
      required: required.has(name),
      enumValues: values.filter((value): value is string => typeof value === "string" && value.length <= MAX_ENUM_VALUE_LENGTH).slice(0, MAX_ENUM_VALUES),
    };
  });
}
