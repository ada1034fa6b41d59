import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { descriptionProblem, SKILL_DESCRIPTION_MAX, skillNameProblem } from "../src/skills/validate.js";

/** One routable item of the shared corpus: a SKILL.md folder, an MCP server's tool, or an OpenAI function. */
export type CorpusItem =
  | { kind: "skill"; key: string; file: string }
  | { kind: "mcp"; key: string; server: string; tool: Record<string, unknown> }
  | { kind: "function"; key: string; definition: Record<string, unknown> };

interface SkillIndexEntry {
  dir: string;
  source_path: string;
  name: string;
  description: string;
}

interface McpServer {
  server: string;
  tools: { name: string; description?: string }[];
}

/**
 * Every usable item of a corpus laid out like ../shared/corpus (skills/index.json + folders,
 * tools/mcp-smithery.json, tools/seal-tools.json), without repeated names, empty descriptions or skills the
 * indexer would refuse, so that a sample of n items indexes as n skills.
 */
export function readCorpus(root: string): CorpusItem[] {
  const items: CorpusItem[] = [];
  const seen = new Set<string>();
  const add = (item: CorpusItem) => {
    if (seen.has(item.key)) return;
    seen.add(item.key);
    items.push(item);
  };
  const skills = JSON.parse(readFileSync(path.join(root, "skills", "index.json"), "utf8")) as SkillIndexEntry[];
  for (const entry of skills.filter((skill) => !skillNameProblem(skill.name) && !descriptionProblem(skill.description, SKILL_DESCRIPTION_MAX)))
    add({ kind: "skill", key: `name:${entry.name.toLowerCase()}`, file: path.join(root, "skills", entry.dir, path.basename(entry.source_path)) });
  const mcp = JSON.parse(readFileSync(path.join(root, "tools", "mcp-smithery.json"), "utf8")) as { servers: McpServer[] };
  for (const server of mcp.servers) {
    for (const tool of server.tools) if (tool.description?.trim()) add({ kind: "mcp", key: `mcp:${server.server}/${tool.name}`, server: server.server, tool });
  }
  const functions = JSON.parse(readFileSync(path.join(root, "tools", "seal-tools.json"), "utf8")) as { function: { name: string } }[];
  for (const definition of functions) add({ kind: "function", key: `name:${definition.function.name.toLowerCase()}`, definition });
  return items;
}

/**
 * The first n items in a fixed pseudo-random order: every kind in proportion, and each size a subset of the next.
 * Beyond the corpus's own items, its tools come again as synthetic copies (server or function renamed `-copy-N`).
 */
export function sampleCorpus(items: CorpusItem[], n: number, seed = "skill-router-scale"): CorpusItem[] {
  const rank = (item: CorpusItem) => createHash("sha256").update(`${seed}\u0000${item.key}`).digest("hex");
  const ordered = items
    .map((item) => ({ item, order: rank(item) }))
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0))
    .map((entry) => entry.item);
  const tools = ordered.filter((item) => item.kind !== "skill");
  for (let copy = 1; ordered.length < n && tools.length > 0; copy++) ordered.push(...tools.map((item) => toolCopy(item, copy)));
  return ordered.slice(0, n);
}

/** A tool under another name: the same text, routable beside the original. */
function toolCopy(item: CorpusItem, copy: number): CorpusItem {
  if (item.kind === "mcp") return { ...item, key: `${item.key}-copy-${copy}`, server: `${item.server}-copy-${copy}` };
  if (item.kind === "skill") return item;
  const fn = item.definition["function"] as Record<string, unknown>;
  return { ...item, key: `${item.key}-copy-${copy}`, definition: { ...item.definition, function: { ...fn, name: `${fn["name"]}_copy_${copy}` } } };
}

/** Writes the items as a skills folder `router index` reads: SKILL.md copies, one MCP collection, one OpenAI function file. */
export function writeCorpus(items: CorpusItem[], dir: string): void {
  const servers = new Map<string, Record<string, unknown>[]>();
  const functions: Record<string, unknown>[] = [];
  items.forEach((item, index) => {
    if (item.kind === "skill") {
      const folder = path.join(dir, "skills", `${String(index).padStart(5, "0")}-${path.basename(path.dirname(item.file))}`);
      mkdirSync(folder, { recursive: true });
      copyFileSync(item.file, path.join(folder, path.basename(item.file)));
    } else if (item.kind === "mcp") {
      servers.set(item.server, [...(servers.get(item.server) ?? []), item.tool]);
    } else {
      functions.push(item.definition);
    }
  });
  mkdirSync(path.join(dir, "tools"), { recursive: true });
  if (servers.size > 0) writeFileSync(path.join(dir, "tools", "mcp-servers.json"), JSON.stringify({ servers: [...servers].map(([server, tools]) => ({ server, tools })) }));
  if (functions.length > 0) writeFileSync(path.join(dir, "tools", "functions.json"), JSON.stringify(functions));
}
