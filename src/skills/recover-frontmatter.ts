import { parse as parseYaml } from "yaml";

export interface RecoveredFrontmatter {
  data: Record<string, unknown>;
  /** Keys whose value YAML refused and that were kept as the plain text of their lines. */
  plainKeys: string[];
}

// `key: value` at column 0; the value is everything after the first `:` and blank.
const TOP_LEVEL_KEY = /^([A-Za-z0-9_][A-Za-z0-9_.-]*):(?:[ \t]+(.*?))?[ \t]*$/;
// A value starting with one of these is YAML structure (flow collection, quote, block scalar, anchor...), not plain text.
const STRUCTURED_START = /^(?:[[\]{}"'|>&*!%@`#]|[-?:](?:[ \t]|$))/;

/**
 * Re-reads frontmatter a YAML parser refuses, one top-level key at a time, as agents that load such files do.
 * The usual fault is an unquoted `: ` inside a value (`description: Use this when: the user asks`): a block
 * that is not valid YAML on its own keeps the rest of its line, folded with its indented continuation lines,
 * as a plain string. Returns undefined when the text is not even a list of `key: value` blocks.
 */
export function recoverFrontmatter(source: string): RecoveredFrontmatter | undefined {
  const blocks: { key: string; rest: string; lines: string[] }[] = [];
  for (const line of source.split(/\r?\n/)) {
    const keyLine = TOP_LEVEL_KEY.exec(line);
    if (keyLine) blocks.push({ key: keyLine[1]!, rest: keyLine[2] ?? "", lines: [line] });
    else if (line.trim() === "" || line.startsWith("#") || /^[ \t]/.test(line)) blocks.at(-1)?.lines.push(line);
    else return undefined;
  }
  const recovered: RecoveredFrontmatter = { data: {}, plainKeys: [] };
  for (const block of blocks) {
    const parsed = parseBlock(block.lines.join("\n"));
    if (parsed !== undefined && block.key in parsed) {
      recovered.data[block.key] = parsed[block.key];
      continue;
    }
    if (block.rest === "" || STRUCTURED_START.test(block.rest)) return undefined;
    const continuation = block.lines
      .slice(1)
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#"));
    recovered.data[block.key] = [block.rest, ...continuation].join(" ");
    recovered.plainKeys.push(block.key);
  }
  return recovered;
}

function parseBlock(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = parseYaml(text, { strict: true, maxAliasCount: 100 });
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
