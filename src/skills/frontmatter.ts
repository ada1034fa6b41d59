import { parse as parseYaml, YAMLParseError } from "yaml";

export interface Frontmatter {
  /** The parsed YAML mapping, or undefined when the text has no frontmatter block. */
  data: Record<string, unknown> | undefined;
  /** Everything after the closing `---` line, or the whole text without frontmatter. */
  body: string;
}

// A frontmatter block is `---` on the first line and the next line that is exactly `---` (or `...`).
const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** Splits YAML frontmatter from a markdown text, or says why the frontmatter is unreadable. */
export function splitFrontmatter(text: string): Frontmatter | { reason: string } {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (!/^---[ \t]*\r?\n/.test(source)) return { data: undefined, body: source };
  const match = FRONTMATTER.exec(source);
  if (!match) return { reason: "frontmatter starts with --- but has no closing --- line" };
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? "", { strict: true, uniqueKeys: true, maxAliasCount: 100 });
  } catch (error) {
    return { reason: `malformed YAML frontmatter: ${error instanceof YAMLParseError ? error.message.split("\n")[0] : String(error)}` };
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== "object" || Array.isArray(data)) return { reason: "frontmatter is not a YAML mapping" };
  return { data: data as Record<string, unknown>, body: source.slice(match[0].length) };
}
