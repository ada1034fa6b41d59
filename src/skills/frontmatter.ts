import { parse as parseYaml, YAMLParseError } from "yaml";
import { sizeAgainstLimit } from "./decode-text.js";
import { MAX_FRONTMATTER_BYTES, MAX_NESTING_DEPTH } from "./limits.js";
import { bracketDepth } from "./nesting-depth.js";
import { recoverFrontmatter } from "./recover-frontmatter.js";

export interface Frontmatter {
  /** The parsed YAML mapping, or undefined when the text has no frontmatter block. */
  data: Record<string, unknown> | undefined;
  /** Everything after the closing `---` line, or the whole text without frontmatter. */
  body: string;
  /** How a frontmatter YAML refuses was read anyway (lenient reading only). */
  warnings: string[];
}

// A frontmatter block is `---` on the first line and the next line that is exactly `---` (or `...`).
const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const YAML_OPTIONS = { strict: true, uniqueKeys: true, maxAliasCount: 100 } as const;

/**
 * Splits YAML frontmatter from a markdown text, or says why the frontmatter is unreadable. With `lenient`,
 * YAML that agents load although a strict parser refuses it (repeated keys, an unquoted `: ` in a value)
 * is read anyway, with a warning.
 */
export function splitFrontmatter(text: string, lenient: boolean): Frontmatter | { reason: string } {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (!/^---[ \t]*\r?\n/.test(source)) return { data: undefined, body: source, warnings: [] };
  const match = FRONTMATTER.exec(source);
  if (!match) return { reason: "frontmatter starts with --- but has no closing --- line" };
  const yaml = match[1] ?? "";
  const bytes = Buffer.byteLength(yaml);
  if (bytes > MAX_FRONTMATTER_BYTES) return { reason: `YAML frontmatter is ${sizeAgainstLimit(bytes, MAX_FRONTMATTER_BYTES)}` };
  // The YAML parser recurses per level: thousands of nested brackets exhaust its stack, or memory.
  if (bracketDepth(yaml, MAX_NESTING_DEPTH, false) > MAX_NESTING_DEPTH) return { reason: `YAML frontmatter nests deeper than ${MAX_NESTING_DEPTH} levels` };
  const read = readYaml(yaml, lenient);
  if ("reason" in read) return read;
  const data = read.data ?? {};
  if (typeof data !== "object" || Array.isArray(data)) return { reason: "frontmatter is not a YAML mapping" };
  return { data: data as Record<string, unknown>, body: source.slice(match[0].length), warnings: read.warnings };
}

function readYaml(yaml: string, lenient: boolean): { data: unknown; warnings: string[] } | { reason: string } {
  let refusal: string;
  let repeatedKey = false;
  try {
    return { data: parseYaml(yaml, YAML_OPTIONS), warnings: [] };
  } catch (error) {
    refusal = error instanceof YAMLParseError ? error.message.split("\n")[0]!.replace(/:$/, "") : String(error);
    repeatedKey = error instanceof YAMLParseError && error.code === "DUPLICATE_KEY";
  }
  if (lenient) {
    // Parsed again only when a repeated key is what YAML refused: each parse of a hostile block costs as much as the first.
    if (repeatedKey) {
      try {
        const data: unknown = parseYaml(yaml, { ...YAML_OPTIONS, uniqueKeys: false });
        return { data, warnings: [`YAML frontmatter is not valid YAML (${refusal}); a repeated key keeps its last value`] };
      } catch {
        // not only a repeated key: try reading it line by line
      }
    }
    const recovered = recoverFrontmatter(yaml);
    if (recovered) {
      const keys = recovered.plainKeys.map((key) => `'${key}'`).join(", ");
      const plain = keys === "" ? "" : `; ${keys} kept as plain text (quote values that contain ': ')`;
      return { data: recovered.data, warnings: [`YAML frontmatter is not valid YAML (${refusal}); read one top-level key at a time${plain}`] };
    }
  }
  return { reason: `malformed YAML frontmatter: ${refusal}` };
}
