import type { RankedSkill, RouteResult } from "../client/types.js";
import { riskNotice } from "../contract/risk-warnings.js";

/** Claude Code moves hook context over 10,000 characters into a file and shows the model a preview; stay under it. */
export const DEFAULT_CONTEXT_CHARS = 9_500;

/** Finds where a skill's full text lives, for the note on a skill that had to be cut. */
export type LocateSkill = (name: string) => Promise<string | undefined>;

/**
 * What the agent reads for an `inject` decision: one line on why, then each selected skill's instructions
 * (exactly what `router show` prints), cut to fit `maxChars` with a note saying where the rest is.
 */
export async function skillContext(result: RouteResult, maxChars: number, locate: LocateSkill): Promise<string> {
  const chosen = result.selected.map((name) => result.skills.find((skill) => skill.name === name)).filter((skill): skill is RankedSkill => skill !== undefined);
  const header = headline(chosen);
  const wrappers = chosen.map((skill) => wrap(skill, ""));
  const share = Math.floor((maxChars - header.length - wrappers.reduce((sum, text) => sum + text.length + 2, 0)) / Math.max(chosen.length, 1));
  const blocks = await Promise.all(chosen.map(async (skill) => wrap(skill, await fitBody(skill, share, locate))));
  return [header, ...blocks].join("\n\n");
}

function headline(chosen: RankedSkill[]): string {
  const named = chosen.map((skill) => `the ${skill.kind} "${skill.name}" (confidence ${skill.confidence.toFixed(2)})`);
  const list = named.length > 1 ? `${named.slice(0, -1).join(", ")} and ${named.at(-1)}` : (named[0] ?? "");
  return `skill-router matched this prompt to ${list}. ${chosen.length > 1 ? "Their instructions follow; apply them" : "Its instructions follow; apply them"} to this request.`;
}

/** A skill's text in its tags, a flagged skill's warning before it: what it asks for, and that the user must agree. */
function wrap(skill: RankedSkill, body: string): string {
  const warning =
    skill.risks.length > 0
      ? `${riskNotice(
          skill.name,
          skill.risks.map((risk) => risk.rule),
        )}\n`
      : "";
  return `${warning}<skill name="${skill.name}">\n${body}\n</skill>`;
}

async function fitBody(skill: RankedSkill, budget: number, locate: LocateSkill): Promise<string> {
  const body = skill.body ?? "";
  if (body.length <= budget) return body;
  const source = await locate(skill.name).catch(() => undefined);
  const where = source ? `read the whole skill at ${source}` : `run \`router show ${skill.name}\` for the whole skill`;
  const note = `\n[cut to the first CHARS of ${body.length} characters: ${where}]`;
  const kept = Math.max(0, budget - note.length);
  return `${body.slice(0, kept)}${note.replace("CHARS", String(kept))}`;
}
