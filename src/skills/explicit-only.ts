// A skill its author wants loaded only when the user asks for it by name: Claude Code's frontmatter field, or the same
// said in prose. Prose counts only where it speaks of the skill itself and of being named or invoked ("Use only when
// the user explicitly invokes this skill by name"), not a topical "only when the user asks for PPTX".
const SAID_IN_PROSE =
  /\b(?:only|exclusively)\b[^.!?\n]{0,60}?\b(?:by (?:its )?name|names? (?:this|the) skill|(?:invokes?|calls?|requests?|loads?) (?:this|the) skill|via (?:a |the )?\/[a-z][\w-]*|through (?:a |the )?\/[a-z][\w-]*|(?:a |the )?slash command)/i;

const OTHER_WAY_IN = /\bor\b/i;

/** Why a skill is used only when the user names it (its frontmatter, or the sentence of its description or body that says so), or undefined. */
export function explicitOnlyReason(frontmatter: Record<string, unknown>, description: string, body: string): string | undefined {
  if (frontmatter["disable-model-invocation"] === true) return "its frontmatter says disable-model-invocation: true";
  for (const text of [description, body]) {
    const said = SAID_IN_PROSE.exec(text);
    // "only when the user names this skill or clearly asks for X" names another way in: not by name only.
    if (said && !OTHER_WAY_IN.test(text.slice(said.index + said[0].length).split(/[.!?\n]/)[0]!)) return `it says "${sentenceAround(text, said.index)}"`;
  }
  return undefined;
}

/** The sentence holding the character at `at`, trimmed to a readable length. */
function sentenceAround(text: string, at: number): string {
  const start = Math.max(text.lastIndexOf(". ", at) + 2, text.lastIndexOf("\n", at) + 1, 0);
  const ends = [". ", "\n"].map((mark) => text.indexOf(mark, at)).filter((end) => end >= 0);
  const sentence = text.slice(start, ends.length > 0 ? Math.min(...ends) + 1 : text.length).trim();
  return sentence.length > 160 ? `${sentence.slice(0, 157)}...` : sentence;
}
