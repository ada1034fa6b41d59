import { isTrustedSource } from "./risk-installers.js";
import { type LineRiskRule, RISK_RULE_SPECS, type RiskClause, type SourceCheck } from "./risk-rule-data.js";

/**
 * Applies the rules of skills/risk-rule-data.ts to the lines of a text. A line breaks a rule when one of its clauses
 * matches the line and everything else the clause asks for holds (the lines near it, the rest of its sentence, an
 * unknown host), unless the match is a citation: what a security skill quotes as an example to detect, in a fenced
 * block or a quotation introduced as indicators, red flags or the like.
 */
export interface RuleBreak {
  rule: LineRiskRule;
  /** 0-based line. */
  index: number;
  /** The text that matched. */
  excerpt: string;
}

interface CompiledClause extends RiskClause {
  gate: RegExp;
  /** `pattern` with the `g` flag, to try every match on a line when the first is a citation or comes from a known host. */
  every: RegExp;
  nearEvery?: RegExp;
}

const COMPILED = RISK_RULE_SPECS.map((spec) => ({
  id: spec.id,
  clauses: spec.clauses.map(
    (clause): CompiledClause => ({
      ...clause,
      gate: clause.gate ?? spec.gate,
      every: global(clause.pattern),
      ...(clause.near ? { nearEvery: global(clause.near.pattern) } : {}),
    }),
  ),
}));

function global(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`);
}

/** Every line that breaks a rule, once per rule and line, in line order. */
export function ruleBreaks(lines: string[]): RuleBreak[] {
  const text = lines.join("\n");
  // Each gate is tested once per text (clauses share their rule's): a clause whose gate fails never reads a line.
  const passed = new Map<RegExp, boolean>();
  const passes = (gate: RegExp) => passed.get(gate) ?? passed.set(gate, gate.test(text)).get(gate)!;
  const active = COMPILED.map((rule) => ({ id: rule.id, clauses: rule.clauses.filter((clause) => passes(clause.gate)) })).filter((rule) => rule.clauses.length > 0);
  if (active.length === 0) return [];
  const view = new TextView(lines);
  const breaks: RuleBreak[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = view.logical(index);
    for (const rule of active) {
      for (const clause of rule.clauses) {
        const excerpt = breakOf(clause, view, index, line);
        if (excerpt === undefined) continue;
        breaks.push({ rule: rule.id, index, excerpt });
        break;
      }
    }
  }
  return breaks;
}

/** The matched text when line `index` (read as `line`, with the lines it carries on) breaks the clause. */
function breakOf(clause: CompiledClause, view: TextView, index: number, line: string): string | undefined {
  if (!clause.pattern.test(line) || clause.unless?.test(line)) return undefined;
  if (clause.near && !view.hasNear(index, clause.near, clause.nearEvery!)) return undefined;
  for (const match of line.matchAll(clause.every)) {
    // A `lead` group is matched by a lookbehind (so a pattern can start scanning at its rare word): it belongs to the match.
    const start = match.index - (match.groups?.lead?.length ?? 0);
    const matched = line.slice(start, match.index + match[0].length);
    if (clause.saying && !clause.saying.test(matched + restOfSentence(line, match.index + match[0].length))) continue;
    if (clause.unknownSource && !hasUnknownSource(matched, clause.unknownSource)) continue;
    if (view.isCitation(index, start, clause.quotedIsCitation === true)) continue;
    return matched;
  }
  return undefined;
}

function restOfSentence(line: string, from: number): string {
  // A sentence runs at most this far: a hostile line with no full stop costs one window per match, not the whole line.
  const rest = line.slice(from, from + MAX_SENTENCE);
  const end = rest.search(/[.!?](?=\s|$)/);
  return end === -1 ? rest : rest.slice(0, end);
}

const MAX_SENTENCE = 300;
// How much of a line before a match is read to tell a citation: enough for a quotation and its introduction.
const CITATION_WINDOW = 1000;

const URL_WITH_SCHEME = /\bhttps?:\/\/[^\s"'\x60|;&)<>\]]+/gi;
// `irm bun.sh/install.ps1 | iex`: a host named without a scheme, looked for only when no URL has one.
const BARE_HOST = /(?<![\w@/.:$-])(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:\/[^\s"'\x60|;&)<>]*)?/gi;
const IP_HOST = /^(?:https?:\/\/)?(?:[^/@\s]*@)?(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\])(?::\d+)?(?:\/|$)/i;

/** Whether the text fetches from a host nobody vouches for (see SourceCheck). */
function hasUnknownSource(text: string, check: SourceCheck): boolean {
  const withScheme = text.match(URL_WITH_SCHEME);
  if (check === "download") return withScheme === null || withScheme.some((url) => !isTrustedSource(url));
  const urls = withScheme ?? text.match(BARE_HOST) ?? [];
  return urls.some((url) => !isTrustedSource(url) && !IP_HOST.test(url));
}

// Words that introduce a quotation as something to detect, not to do: "flags `curl ... | bash`", "## Red flags".
const DETECTION =
  /\b(?:detect\w*|flag(?:s|ged|ging)?|block(?:s|ed|ing)?|catch(?:es)?|looks?\s+for|watch(?:es)?\s+(?:out\s+)?for|scan(?:s|ning)?\s+for|indicators?|IOCs?|signatures?|red\s+flags?|malicious|suspicious|malware|lures?|phishing|never\s+(?:run|execute|paste)|(?:do\s+not|don'?t)\s+(?:run|execute|paste)|refuses?|rejects?|warn(?:s|ing)?\s+(?:about|against)|dangerous|unsafe|anti-?patterns?)\b/i;
// Words that report an attack's phrase rather than say it: "emails that ask you to ignore previous instructions".
const REPORTED = /\b(?:ask|asks|asking|tell|tells|telling|told|try|tries|trying|attempts?|like|such as|e\.g\.|says?|claims?|contains?|containing)\b[^.\n]{0,25}$/i;
const FENCE = /^\s*(?:```|~~~)/;
const HEADING = /^\s{0,3}#{1,6}\s/;

/** Inside a quotation on its line: how security skills cite an attack's words ("ignore previous instructions") as an example. */
function quoted(line: string, index: number): boolean {
  const before = line.slice(0, index);
  const count = (pattern: RegExp) => (before.match(pattern) ?? []).length;
  return count(/"/g) % 2 === 1 || count(/`/g) % 2 === 1 || count(/[“]/g) > count(/[”]/g) || /['‘]\s*$/.test(before);
}

/** A text's lines, with what the rules ask of a line's surroundings worked out once per text and only when asked. */
class TextView {
  private readonly logicalLines = new Map<number, string>();
  private contexts: { inExample: boolean; heading: string }[] | undefined;

  constructor(private readonly lines: string[]) {}

  /** The line, with the lines a trailing backslash or an unclosed `<!--` carries on, joined by spaces. */
  logical(index: number): string {
    const line = this.lines[index]!;
    const continues = /\\\s*$/.test(line);
    const opensComment = line.includes("<!--") && !line.slice(line.lastIndexOf("<!--")).includes("-->");
    if (!continues && !opensComment) return line;
    let joined = this.logicalLines.get(index);
    if (joined !== undefined) return joined;
    const parts = [continues ? line.replace(/\\\s*$/, "") : line];
    for (let next = index + 1; next < this.lines.length && next <= index + 30; next++) {
      const part = this.lines[next]!;
      if (continues) {
        parts.push(part.replace(/\\\s*$/, ""));
        if (!/\\\s*$/.test(part)) break;
      } else {
        parts.push(part);
        if (part.includes("-->")) break;
      }
    }
    joined = parts.join(" ");
    this.logicalLines.set(index, joined);
    return joined;
  }

  hasNear(index: number, near: NonNullable<RiskClause["near"]>, every: RegExp): boolean {
    const window = this.lines.slice(Math.max(0, index - near.before), index + near.after + 1).join("\n");
    if (!near.unknownSource) return near.pattern.test(window);
    return [...window.matchAll(every)].some((match) => hasUnknownSource(match[0], near.unknownSource!));
  }

  /** Whether the match at `at` on line `index` cites an attack rather than asks for one. */
  isCitation(index: number, at: number, quotedIsCitation: boolean): boolean {
    const line = this.logical(index);
    const before = line.slice(Math.max(0, at - CITATION_WINDOW), at);
    const { inExample, heading } = this.context(index);
    if (inExample) return true;
    const inQuotes = quoted(before, before.length);
    if (inQuotes && (DETECTION.test(before) || DETECTION.test(heading))) return true;
    return quotedIsCitation && (inQuotes || REPORTED.test(before.slice(-100)));
  }

  /** Per line: inside a fenced block introduced as things to detect, and the heading of its section. */
  private context(index: number): { inExample: boolean; heading: string } {
    this.contexts ??= this.readContexts();
    return this.contexts[index]!;
  }

  private readContexts(): { inExample: boolean; heading: string }[] {
    let heading = "";
    let lastText = "";
    let fence: { example: boolean } | undefined;
    return this.lines.map((line) => {
      if (FENCE.test(line)) {
        // The fence's own lines count as inside it, so an opening fence is read with the block it opens.
        fence = fence ? undefined : { example: DETECTION.test(lastText) || DETECTION.test(heading) };
        return { inExample: true, heading };
      }
      if (fence) return { inExample: fence.example, heading };
      if (HEADING.test(line)) heading = line;
      if (line.trim() !== "") lastText = line;
      return { inExample: false, heading };
    });
  }
}
