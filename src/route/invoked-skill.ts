import { withoutNegatedSpans } from "../text/negated-spans.js";

// How agents let a user call a skill by name: Codex's `$skill-name` anywhere in the message, a slash command
// (`/skill-name`) at its start in Claude Code. A name starts with a letter; "$500" and "/v1/…" are no names.
const DOLLAR_MENTION = /(?<![\w$])\$([A-Za-z][\w.-]*)/g;
const LEADING_SLASH = /^\s*\/([A-Za-z][\w.-]*)/;
// "Use $savepoint." ends a sentence: the dot is not part of the name.
const TRAILING_PUNCTUATION = /[.-]+$/;

/**
 * The skill a message calls by name (`$name`, or `/name` opening it), when the index has one of exactly that name
 * that `allowed` admits (exactly: "$HOME" in a pasted script calls no skill "home"). A mention inside what the message
 * says it does not want calls nothing.
 */
export function invokedSkill(text: string, byName: ReadonlyMap<string, number>, allowed?: (skill: number) => boolean): number | undefined {
  const wanted = withoutNegatedSpans(text);
  const mentions = [LEADING_SLASH.exec(wanted)?.[1], ...[...wanted.matchAll(DOLLAR_MENTION)].map((match) => match[1])];
  for (const mention of mentions) {
    if (mention === undefined) continue;
    const name = mention.replace(TRAILING_PUNCTUATION, "");
    const skill = byName.get(name);
    if (skill !== undefined && (allowed?.(skill) ?? true)) return skill;
  }
  return undefined;
}
