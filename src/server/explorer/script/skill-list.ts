import type { SkillSummary } from "../../../contract/skills.js";
import { call } from "./api.js";

// GET /skills, read whenever the status line is (on load and on a new key): the risk marks and the feedback control's
// skill names share this one answer rather than each asking for it.
let listed: Promise<SkillSummary[]> | undefined;

/** Reads the index's skills again; none when the router refuses (the status line says why). */
export function loadSkillList(): Promise<SkillSummary[]> {
  const read = call<SkillSummary[]>("skills", {}).catch(() => {
    // A failed read is not kept: the next part that needs the list asks again.
    if (listed === read) listed = undefined;
    return [];
  });
  listed = read;
  return read;
}

/** The skills as last read (waiting for a read under way), or read now when the status line has not. */
export const skillList = (): Promise<SkillSummary[]> => listed ?? loadSkillList();
