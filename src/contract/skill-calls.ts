// How agents let a user call a skill by name: Codex's `$skill-name` anywhere in the message, a slash command
// (`/skill-name`) at its start in Claude Code. A name starts with a letter; "$500" and "/v1/…" are no names.
const DOLLAR_MENTION = /(?<![\w$])\$([A-Za-z][\w.-]*)/g;
const LEADING_SLASH = /^\s*\/([A-Za-z][\w.-]*)/;
// "Use $savepoint." ends a sentence: the dot is not part of the name.
const TRAILING_PUNCTUATION = /[.-]+$/;

/** The name a message opens with as a slash command (`/name ...`), if it does. */
export function slashCommand(text: string): string | undefined {
  return LEADING_SLASH.exec(text)?.[1]?.replace(TRAILING_PUNCTUATION, "");
}

/** Every name the message calls a skill by, in order: its slash command, then each `$name`. */
export function skillCalls(text: string): string[] {
  const dollar = [...text.matchAll(DOLLAR_MENTION)].map((match) => match[1]!.replace(TRAILING_PUNCTUATION, ""));
  const slash = slashCommand(text);
  return slash === undefined ? dollar : [slash, ...dollar];
}
