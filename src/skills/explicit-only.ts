// A skill its author wants loaded only when the user asks for it by name: Claude Code's frontmatter field, or the same
// said in prose. A sentence counts only when it speaks of invoking this skill: "only" follows a verb of using or
// invoking it ("Use only when", "Load it exclusively through", "activated ONLY via") or opens the sentence with one,
// and what follows says how it is called (by name, naming or invoking this skill, through a slash command). Not a
// topical "only when the user asks for PPTX", nor "if the request is only a slash command", nor "only via the /auth endpoint".

const ONLY = /\b(?:only|exclusively)\b/gi;

// What comes before "only" when the sentence is about invoking this skill: a verb of using or invoking it, alone or
// with "this skill" or "it" as its object.
const INVOKED_BEFORE = /\b(?:use|used|activate|activated|invoke|invoked|load|loaded|trigger|triggered|call|called)(?: (?:this skill|the skill|this|it))?(?: explicitly| manually)?$/i;
// After an opening "only": the condition or the verb of invoking ("Only when the user names this skill", "Only invoke it via /x").
const INVOKED_AFTER_OPENING = /^(?:when|if|use|activate|invoke|load|trigger|call)\b/i;
// In a description, whose sentences speak of the skill: an aside ("Runs the hardening pass, only via /hp-harden").
const ASIDE_BEFORE = /(?:,|;|--|\u2013|\u2014)$/;

// How the skill is called, within the words after "only": by name, naming or invoking this skill, or a slash command
// taken through ("via /hp-*", "through the /release slash command"), which is no URL path ("/oauth/token").
const CALLED_BY =
  /^[^.!?]{0,100}?\b(?:by (?:its )?name|(?:names?|invokes?|calls?|requests?|loads?|references?) (?:this|the) skill|(?:via|through|with|using|by) (?:a |the )?(?:\/[a-z][\w:*-]*(?![\w/])|slash commands?))/i;

// "only when the user names this skill or clearly asks for X" names another way in: not by name only.
const OTHER_WAY_IN = /\bor\b/i;

/** Why a skill is used only when the user names it (its frontmatter, or the sentence of its description or body that says so), or undefined. */
export function explicitOnlyReason(frontmatter: Record<string, unknown>, description: string, body: string): string | undefined {
  if (frontmatter["disable-model-invocation"] === true) return "its frontmatter says disable-model-invocation: true";
  for (const [text, isDescription] of [
    [description, true],
    [body, false],
  ] as const) {
    const said = sentencesOf(text).find((sentence) => saysCalledByName(sentence, isDescription));
    if (said) return `it says "${said.length > 160 ? `${said.slice(0, 157)}...` : said}"`;
  }
  return undefined;
}

// Characters read on either side of an "only": every pattern fits, and a long line of them costs linear time.
const WINDOW = 300;

function saysCalledByName(sentence: string, isDescription: boolean): boolean {
  for (const only of sentence.matchAll(ONLY)) {
    const before = sentence.slice(Math.max(0, only.index - WINDOW), only.index).trimEnd();
    const after = sentence.slice(only.index + only[0].length, only.index + only[0].length + WINDOW).trimStart();
    const aboutThisSkill = only.index === 0 ? INVOKED_AFTER_OPENING.test(after) : INVOKED_BEFORE.test(before) || (isDescription && ASIDE_BEFORE.test(before));
    const called = aboutThisSkill ? CALLED_BY.exec(after) : null;
    if (called && !OTHER_WAY_IN.test(after.slice(called[0].length))) return true;
  }
  return false;
}

/**
 * The prose sentences of a text, each whole: code blocks dropped, a paragraph's wrapped lines joined, list items and
 * headings apart, markdown emphasis and code marks taken out (they are not words).
 */
function sentencesOf(text: string): string[] {
  return text
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "\n")
    .replace(/^\s*#.*$/gm, "\n$&\n")
    .split(/\n\s*\n|\n(?=\s*(?:[-*+]\s|\d+[.)]\s|#|>|\|))/)
    .flatMap((block) =>
      withoutMarks(block)
        .replace(/\s+/g, " ")
        .split(/(?<=[.!?])\s+/),
    )
    .map((sentence) => sentence.replace(/^(?:[-*+>#|]+|\d+[.)])\s*/, "").trim())
    .filter((sentence) => sentence !== "");
}

/** Code marks, bold, and the stars of an italic word taken out; a star inside a word or a command (`/hp-*`) stays. */
function withoutMarks(text: string): string {
  return text.replace(/`+|\*{2,}/g, "").replace(/(?<=^|\s)\*(?=\w)|(?<=\w)\*(?=\s|[.,;:!?]|$)/gm, "");
}
