// `npm run docs`: writes the generated parts of docs/http-api.md (the app's OpenAPI document and the error catalogue)
// and docs/cli.md (every command's --help, run on the built CLI). test/docs/generated-docs.test.ts fails when they drift.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { exitCodeFor } from "../src/cli/exit-codes.js";
import { ERROR_CATALOGUE, type ErrorCode } from "../src/errors.js";
import { createApp } from "../src/server/app.js";

/** Everything above this line of a generated file is written by hand and kept; everything below it is rewritten. */
export const GENERATED_MARKER = "<!-- Everything below this line is written by `npm run docs` from the code: edit the code (or the text above), not this. -->";
export const GENERATED_FILES = ["http-api.md", "cli.md"] as const;

const CLI = path.resolve("dist/cli/main.js");

interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  example?: unknown;
}

interface Operation {
  summary?: string;
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
}

interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** Writes every generated file into `outDir`, each under the hand-written text of its copy in `docsDir`. */
export async function buildDocs(docsDir: string, outDir: string): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const generated: Record<(typeof GENERATED_FILES)[number], string> = { "http-api.md": httpApiMarkdown(await openApiDocument()), "cli.md": cliMarkdown() };
  for (const file of GENERATED_FILES) writeFileSync(path.join(outDir, file), `${handWritten(path.join(docsDir, file))}${GENERATED_MARKER}\n\n${generated[file]}`);
}

/** The text above the marker, or a bare title for a file not written yet. */
function handWritten(file: string): string {
  if (!existsSync(file)) return `# ${path.basename(file, ".md")}\n\n`;
  const text = readFileSync(file, "utf8");
  const at = text.indexOf(GENERATED_MARKER);
  return at === -1 ? `${text.trimEnd()}\n\n` : text.slice(0, at);
}

/** The document `GET /openapi.json` serves, from an app with no router loaded (the document does not need one). */
async function openApiDocument(): Promise<OpenApiDocument> {
  const app = createApp({ router: undefined, error: undefined, draining: false });
  const response = await app.request("/openapi.json");
  return (await response.json()) as OpenApiDocument;
}

export function httpApiMarkdown(document: OpenApiDocument): string {
  const out: string[] = ["## Endpoints", ""];
  for (const [route, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) out.push(...endpointMarkdown(method.toUpperCase(), route, operation));
  }
  out.push("## Schemas", "");
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    out.push(`### ${name}`, "");
    if (schema.description) out.push(sentence(schema.description), "");
    out.push(...fieldTable(schema));
  }
  out.push("## Error codes", "", 'Every error answer is `{"error": {"code", "message", "details"?}}`. The codes and statuses are `src/errors.ts`\'s catalogue.', "");
  out.push("| code | HTTP status | message |", "|---|---|---|");
  for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) out.push(`| \`${code}\` | ${entry.status} | ${cell(entry.message)} |`);
  return `${out.join("\n")}\n`;
}

function endpointMarkdown(method: string, route: string, operation: Operation): string[] {
  const out = [`### ${method} ${route}`, ""];
  if (operation.summary) out.push(sentence(operation.summary), "");
  out.push(operation.security?.length === 0 ? "No API key needed." : "Needs `Authorization: Bearer <key>` when the server has an API key.", "");
  if (operation.parameters?.length) {
    out.push("| parameter | in | type | required | description |", "|---|---|---|---|---|");
    for (const parameter of operation.parameters)
      out.push(`| \`${parameter.name}\` | ${parameter.in} | ${typeText(parameter.schema)} | ${parameter.required ? "yes" : "no"} | ${cell(parameter.description ?? "")} |`);
    out.push("");
  }
  const body = operation.requestBody?.content["application/json"]?.schema;
  if (body) out.push(`Request body (\`application/json\`): ${typeText(body)}.`, "");
  out.push("| status | meaning | body |", "|---|---|---|");
  for (const [status, response] of Object.entries(operation.responses)) {
    const schema = response.content?.["application/json"]?.schema;
    out.push(`| ${status} | ${cell(response.description)} | ${schema ? typeText(schema) : ""} |`);
  }
  out.push("");
  return out;
}

/** One row per field, nested objects and arrays of objects flattened (`matched.keywords`, `cases[].query`). */
function fieldTable(schema: Schema): string[] {
  const rows = fieldRows(schema, "");
  if (rows.length === 0) return [`Type: ${typeText(schema)}.`, ""];
  return ["| field | type | required | description |", "|---|---|---|---|", ...rows, ""];
}

function fieldRows(schema: Schema, prefix: string): string[] {
  const rows: string[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const description = [field.description, field.example === undefined ? undefined : `Example: \`${JSON.stringify(field.example)}\`.`].filter((part) => part).map((part) => sentence(part!));
    rows.push(`| \`${prefix}${name}\` | ${typeText(field)} | ${required.has(name) ? "yes" : "no"} | ${cell(description.join(" "))} |`);
    for (const nested of objectParts(field)) rows.push(...fieldRows(nested.schema, `${prefix}${name}${nested.suffix}.`));
  }
  return rows;
}

/** The inline objects inside a field, with how their fields are named: `x.` for an object, `x[].` for an array of them. */
function objectParts(field: Schema): { schema: Schema; suffix: string }[] {
  if (field.properties) return [{ schema: field, suffix: "" }];
  if (field.items?.properties) return [{ schema: field.items, suffix: "[]" }];
  return (field.items?.anyOf ?? []).filter((choice) => choice.properties).map((choice) => ({ schema: choice, suffix: "[]" }));
}

function typeText(schema: Schema): string {
  if (schema.$ref) {
    const name = schema.$ref.split("/").pop()!;
    return `[${name}](#${name.toLowerCase()})`;
  }
  if (schema.anyOf) return schema.anyOf.map(typeText).join(" or ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const nullable = types.includes("null") || (schema.enum?.includes(null) ?? false);
  const base = types.find((type) => type !== "null");
  let text: string;
  if (schema.enum)
    text = `one of ${schema.enum
      .filter((value) => value !== null)
      .map((value) => `\`${JSON.stringify(value)}\``)
      .join(", ")}`;
  else if (base === "array") text = `array${schema.maxItems === undefined ? "" : ` (at most ${grouped(schema.maxItems)} items)`} of ${schema.items ? typeText(schema.items) : "anything"}`;
  else text = `${base ?? "any"}${bounds(schema)}`;
  return nullable ? `${text}, or null` : text;
}

function bounds(schema: Schema): string {
  const [low, high, unit] = schema.minLength !== undefined || schema.maxLength !== undefined ? [schema.minLength, schema.maxLength, " characters"] : [schema.minimum, schema.maximum, ""];
  if (low !== undefined && high !== undefined) return ` (${grouped(low)} to ${grouped(high)}${unit})`;
  if (high !== undefined) return ` (at most ${grouped(high)}${unit})`;
  if (low !== undefined) return ` (at least ${grouped(low)}${unit})`;
  return "";
}

/** 100000 -> 100,000, as the rest of the docs write numbers. */
function grouped(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

export function cliMarkdown(): string {
  const out: string[] = [];
  const commands = [[] as string[], ...subcommands([])];
  for (const words of commands) {
    out.push(`## router${words.map((word) => ` ${word}`).join("")}`, "", "```text", helpText(words), "```", "");
    if (words.length === 1) for (const sub of subcommands(words)) out.push(`## router ${sub.join(" ")}`, "", "```text", helpText(sub), "```", "");
  }
  out.push("## Error codes and exit codes", "", "An error prints as `error [CODE]: message` on stderr; the exit code follows from the code (`src/cli/exit-codes.ts`).", "");
  out.push("| code | exit code | message |", "|---|---|---|");
  for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) out.push(`| \`${code}\` | ${exitCodeFor(code as ErrorCode)} | ${cell(entry.message)} |`);
  return `${out.join("\n")}\n`;
}

/** The commands a help text lists under "Commands:", as word lists (`help` left out). */
function subcommands(words: string[]): string[][] {
  const help = helpText(words);
  const block = help.split("\nCommands:\n")[1];
  if (!block) return [];
  return [...block.matchAll(/^ {2}(\S+)/gm)]
    .map((match) => match[1]!)
    .filter((name) => name !== "help")
    .map((name) => [...words, name]);
}

/** `router <words> --help` as the built CLI prints it (defaults that depend on the machine are written in words). */
function helpText(words: string[]): string {
  // A fixed environment: no ROUTER_* or OPENAI_* variable of the shell.
  const env = { PATH: process.env["PATH"] ?? "" };
  return execFileSync(process.execPath, [CLI, ...words, "--help"], { encoding: "utf8", env }).trimEnd();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildDocs("docs", "docs");
  process.stdout.write(`wrote ${GENERATED_FILES.map((file) => `docs/${file}`).join(" and ")}\n`);
}
