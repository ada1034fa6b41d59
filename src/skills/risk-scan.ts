import type { RiskFlag, RiskRule, SkillFormat } from "../store/records.js";
import { describeHidden, hasHiddenText, hiddenTextOf, visibleText } from "./hidden-text.js";
import { RISK_RULE_SPECS, SCAN_RULE_SPECS } from "./risk-rule-data.js";
import { type RuleBreak, ruleBreaks } from "./risk-rules.js";
import type { ParsedSkill, SkillDocument } from "./types.js";

/** What `router index --risky` does with a flagged skill: index it with a warning, or leave it out. */
export const RISKY_POLICIES = ["warn", "exclude"] as const;
export type RiskyPolicy = (typeof RISKY_POLICIES)[number];

/** Every rule in a person's words, for listings and docs. */
export const RISK_MEANINGS = Object.fromEntries([...RISK_RULE_SPECS, ...SCAN_RULE_SPECS].map((spec) => [spec.id, spec.meaning])) as Record<RiskRule, string>;

const TOOL_FORMATS = new Set<SkillFormat>(["openai-function", "bare-function", "mcp-tool"]);
const EXCERPT_CHARS = 120;
// A skill that breaks rules on every line needs no more than this many to be judged.
const MAX_FLAGS = 50;
// Base64 long enough to carry a sentence; shorter runs are hashes and ids, much longer ones data (an image, a file).
// A run is only looked for where one can start, so an ordinary word costs its length once, not once per letter.
const BASE64_RUN = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{24,}={0,2}/g;
const MAX_DECODED_RUN = 4096;

/** The risk flags of a parsed skill: its file's lines for a skill folder; for a tool, every text of its definition as injected. */
export function riskFlagsOf(skill: ParsedSkill, document: SkillDocument): RiskFlag[] {
  if (skill.format === "agent-skill" || skill.format === "skill-md") return scanRisks(document.text);
  // Each string of a tool (description, a parameter's description, an enum value) is read as the text it is; an eval
  // set's skill is injected as plain text. Either is located in its file.
  const texts = TOOL_FORMATS.has(skill.format) ? textsOf(JSON.parse(skill.injection)) : [skill.injection];
  return onceEach(texts.flatMap((text) => scanRisks(text).map((flag) => ({ ...flag, line: lineInFile(document.text, text, skill) }))));
}

/** The first flag of each rule on each line, at most MAX_FLAGS of them. */
function onceEach(flags: RiskFlag[]): RiskFlag[] {
  const seen = new Set<string>();
  return flags.filter((flag) => !seen.has(`${flag.rule}:${flag.line}`) && seen.add(`${flag.rule}:${flag.line}`)).slice(0, MAX_FLAGS);
}

/** The rules a skill's flags name, each once: how listings sum a flagged skill up. */
export function flaggedRules(risks: RiskFlag[]): RiskRule[] {
  return [...new Set(risks.map((flag) => flag.rule))];
}

/** Every string value in a JSON value, depth first. */
function textsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  return value !== null && typeof value === "object" ? Object.values(value).flatMap(textsOf) : [];
}

/** Every line of `text` that breaks a rule, once per rule and line, in line order. */
export function scanRisks(text: string): RiskFlag[] {
  const raw = text.split(/\r?\n/);
  // Most texts hide nothing: their lines are read as they are.
  const hides = hasHiddenText(text);
  const lines = hides ? raw.map(visibleText) : raw;
  const breaksByLine = new Map<number, RuleBreak[]>();
  for (const broken of ruleBreaks(lines)) breaksByLine.set(broken.index, [...(breaksByLine.get(broken.index) ?? []), broken]);
  const flags: RiskFlag[] = [];
  const flag = (rule: RiskRule, index: number, excerpt: string) => flags.push({ rule, line: index + 1, excerpt: clip(excerpt) });
  raw.forEach((line, index) => {
    if (hides) {
      const hidden = hiddenTextOf(line);
      const described = describeHidden(hidden);
      if (described) flag("hidden-characters", index, described);
      // Text in tag characters is read by the model: its instructions are judged like visible ones.
      for (const broken of rulesBrokenBy(hidden.tagText)) flag(broken.rule, index, `hidden: ${broken.excerpt}`);
    }
    for (const broken of breaksByLine.get(index) ?? []) flag(broken.rule, index, inContext(lines[index]!, broken.excerpt));
    for (const decoded of decodedText(lines[index]!)) {
      const broken = rulesBrokenBy(decoded);
      if (broken.length > 0) flag("encoded-instructions", index, `decodes to "${decoded}" (${broken.map((each) => each.rule).join(", ")})`);
    }
  });
  return onceEach(flags.sort((a, b) => a.line - b.line));
}

function rulesBrokenBy(text: string): RuleBreak[] {
  return text.trim() === "" ? [] : ruleBreaks(text.split(/\r?\n/).map(visibleText));
}

/** The readable texts that base64 runs on a line decode to (an image or a hash decodes to bytes, not text). */
function decodedText(line: string): string[] {
  return (line.match(BASE64_RUN) ?? []).flatMap((run) => {
    if (run.length > MAX_DECODED_RUN) return [];
    const text = Buffer.from(run, "base64").toString("utf8");
    const printable = text.replace(/[^\x20-\x7E\t\n\r]/g, "").length;
    return printable >= text.length * 0.95 && /[a-z]{2,}\s+\S/i.test(text) ? [text] : [];
  });
}

/** The line of a tool's file that holds a text of it (as JSON writes it), or else the line that names the tool. */
function lineInFile(fileText: string, text: string, skill: ParsedSkill): number {
  for (const needle of [JSON.stringify(text).slice(1, -1), `"${skill.metadata.toolName ?? skill.name}"`]) {
    const at = fileText.indexOf(needle);
    if (at !== -1) return fileText.slice(0, at).split("\n").length;
  }
  return 1;
}

/** The match with some of its line around it, so the excerpt reads as the instruction it is part of. */
function inContext(line: string, matched: string): string {
  const at = line.indexOf(matched);
  if (at === -1 || line.length <= EXCERPT_CHARS) return at === -1 ? matched : line;
  const start = Math.max(0, at - 30);
  return `${start > 0 ? "…" : ""}${line.slice(start, start + EXCERPT_CHARS)}`;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat;
}
