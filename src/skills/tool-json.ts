import { formatBytes } from "./decode-text.js";
import { toolInjection } from "./injection.js";
import { fileStem, isRecord, readJson } from "./json-document.js";
import { jsonLongerThan } from "./json-length.js";
import { MAX_TOOL_DEFINITION_BYTES } from "./limits.js";
import { descriptionProblem, TOOL_DESCRIPTION_MAX, toolNameProblem } from "./validate.js";
import type { ParsedSkill, ParseResult, SkillDocument, SkillFormat, SkillParser, SkillProblem } from "./types.js";

/** One tool entry found in a file, with the JSON pointer that locates it. */
interface ToolEntry {
  pointer: string;
  value: unknown;
  /** Set for MCP tools: the server whose tool this is. */
  server?: string;
}

/**
 * Tool definition files: OpenAI function format (single or array), bare {name, description, parameters}
 * (single or array), MCP `tools/list` results (bare or inside a JSON-RPC response) and collections of MCP
 * servers (`{"servers": [{"server", "tools"}]}`). Each tool becomes one routable skill of kind `tool`.
 */
export const toolJsonParser: SkillParser = {
  name: "tool-json",
  accepts: (fileName) => fileName.toLowerCase().endsWith(".json"),
  parse(document: SkillDocument): ParseResult {
    const json = readJson(document);
    if (!json.ok) return { skills: [], problems: [{ file: document.path, reason: json.reason }] };
    const entries = findToolEntries(json.value, fileStem(document.path));
    if (entries === undefined) return { skills: [], problems: [], unrecognised: "not a tool definition file" };
    const result: ParseResult = { skills: [], problems: [] };
    for (const entry of entries) {
      const outcome = toolFromEntry(entry, document.path);
      if ("reason" in outcome) result.problems.push(outcome);
      else result.skills.push(outcome);
    }
    return result;
  },
};

/** Locates the tool entries of every supported shape; undefined when the JSON is not a tool file. */
function findToolEntries(value: unknown, stem: string): ToolEntry[] | undefined {
  if (Array.isArray(value)) {
    if (!value.every(looksLikeTool)) return undefined;
    return value.map((item, index) => ({ pointer: `/${index}`, value: item }));
  }
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value["servers"]) && value["servers"].every((server) => isRecord(server) && Array.isArray(server["tools"]))) {
    return (value["servers"] as Record<string, unknown>[]).flatMap((server, serverIndex) => {
      const serverName = serverSlug(String(server["server"] ?? server["name"] ?? `server-${serverIndex}`));
      return (server["tools"] as unknown[]).map((tool, index) => ({ pointer: `/servers/${serverIndex}/tools/${index}`, value: tool, server: serverName }));
    });
  }
  const listing = isRecord(value["result"]) ? value["result"] : value;
  const prefix = listing === value ? "" : "/result";
  if (Array.isArray(listing["tools"])) {
    const tools = listing["tools"] as unknown[];
    // MCP tools/list entries carry inputSchema; an OpenAI-style {"tools": [...]} list carries functions.
    const isMcp = tools.some((tool) => isRecord(tool) && "inputSchema" in tool);
    return tools.map((tool, index) => ({ pointer: `${prefix}/tools/${index}`, value: tool, ...(isMcp ? { server: serverSlug(stem) } : {}) }));
  }
  if (looksLikeTool(value)) return [{ pointer: "", value }];
  return undefined;
}

/** A bare entry needs a schema key: `{name, description}` alone is too common a shape to claim (e.g. an index file). */
function looksLikeTool(value: unknown): boolean {
  if (!isRecord(value)) return false;
  if (value["type"] === "function" && isRecord(value["function"])) return true;
  return typeof value["name"] === "string" && ("parameters" in value || "inputSchema" in value);
}

function toolFromEntry(entry: ToolEntry, path: string): ParsedSkill | SkillProblem {
  const file = `${path}#${entry.pointer}`;
  if (!isRecord(entry.value)) return { file, reason: "tool entry is not a JSON object" };
  const isOpenAi = entry.value["type"] === "function" && isRecord(entry.value["function"]);
  const definition = isOpenAi ? (entry.value["function"] as Record<string, unknown>) : entry.value;
  const format: SkillFormat = isOpenAi ? "openai-function" : entry.server !== undefined || "inputSchema" in definition ? "mcp-tool" : "bare-function";

  const nameError = toolNameProblem(definition["name"]);
  if (nameError) return { file, reason: nameError };
  const toolName = definition["name"] as string;
  const warnings: string[] = [];
  let description = definition["description"] ?? "";
  if (typeof description === "string" && description.trim() === "") {
    // MCP makes descriptions optional; the tool still routes on its name and parameter names.
    warnings.push("no description: routing uses the tool name and parameters only");
    description = "";
  } else {
    const descriptionError = descriptionProblem(description, TOOL_DESCRIPTION_MAX);
    if (descriptionError) return { file, reason: descriptionError };
  }
  const schemaKey = format === "mcp-tool" ? "inputSchema" : "parameters";
  const parameters = definition[schemaKey];
  if (parameters !== undefined && !isRecord(parameters)) return { file, reason: `'${schemaKey}' must be a JSON object (a JSON schema)` };

  const name = entry.server !== undefined ? `${entry.server}__${toolName}` : toolName;
  // Checked before printing it: printing a 60 MiB schema only to refuse it took longer than parsing the file.
  const tooLarge = { file, reason: `tool definition is over ${formatBytes(MAX_TOOL_DEFINITION_BYTES)} as injected, the limit for one tool` };
  if (jsonLongerThan(entry.value, MAX_TOOL_DEFINITION_BYTES)) return tooLarge;
  const definitionText = toolInjection(entry.value);
  if (Buffer.byteLength(definitionText) > MAX_TOOL_DEFINITION_BYTES) return tooLarge;
  return {
    name,
    kind: "tool",
    format,
    description: (description as string).trim(),
    body: definitionText,
    injection: definitionText,
    sourcePath: file,
    metadata: {
      toolName,
      ...(parameters !== undefined ? { parameters } : {}),
      ...(entry.server !== undefined ? { server: entry.server } : {}),
    },
    warnings,
  };
}

/** `@owner/my-server` -> `owner-my-server`: a prefix safe in names and URLs. */
function serverSlug(server: string): string {
  return (
    server
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "server"
  );
}
