import { createError, type RouterError } from "../errors.js";

/**
 * Feedback kept per store, per skill, and per client and skill; and, for feedback that came over the network (a sender
 * the server knows: its API key, else its address), new words taken per skill and per sender in a window. A skill
 * folds in its 100 newest requests from use (feedback/apply-feedback.ts), so more new ones an hour teach nothing and
 * can only flood it; client names are the sender's own word, so only the windows hold against made-up ones.
 */
export const FEEDBACK_LIMITS: FeedbackLimits = {
  total: 20_000,
  perSkill: 1_000,
  perClientSkill: 200,
  windowMs: 3_600_000,
  perSkillInWindow: 100,
  perSenderInWindow: 1_000,
};

export interface FeedbackLimits {
  total: number;
  perSkill: number;
  perClientSkill: number;
  windowMs: number;
  perSkillInWindow: number;
  perSenderInWindow: number;
}

/** What a store counts before taking a new word, in one read (both stores run the same query shape). */
export interface FeedbackCounts {
  total: number;
  /** Rows teaching the checked skill (the row's skill, else the skill it was wrongly injected for), and this client's. */
  skillRows: number;
  clientSkillRows: number;
  /** Network feedback in the window teaching the row's skill, and teaching the skill it was wrongly injected for, with the oldest one's time. */
  skillRecent: number;
  skillOldest: string | null;
  wrongRecent: number;
  wrongOldest: string | null;
  /** This sender's feedback in the window, and its oldest one's time. */
  senderRecent: number;
  senderOldest: string | null;
}

export interface LimitSubject {
  skill: string | null;
  wrong: string | null;
  client: string;
  /** Who the server knows the sender as; null for the operator (the CLI), whom no window bounds. */
  sender: string | null;
}

/** The start of the window that ends at `now`. */
export function windowStart(now: Date, limits = FEEDBACK_LIMITS): Date {
  return new Date(now.getTime() - limits.windowMs);
}

/** FEEDBACK_LIMIT for the first cap the new word would break, or undefined; a window's error says when to try again. */
export function limitRefusal(counts: FeedbackCounts, subject: LimitSubject, now: Date, isNewRow: boolean, limits = FEEDBACK_LIMITS): RouterError | undefined {
  const checked = subject.skill ?? subject.wrong;
  const full = (what: string, limit: number) =>
    createError("FEEDBACK_LIMIT", `${what} already holds ${limit} pieces of feedback: review them with \`router feedback list\` and remove some with \`router feedback forget\``, { limit });
  if (isNewRow) {
    if (counts.total >= limits.total) return full("The feedback store", limits.total);
    if (checked !== null && counts.skillRows >= limits.perSkill) return full(`Skill "${checked}"`, limits.perSkill);
    if (checked !== null && counts.clientSkillRows >= limits.perClientSkill) return full(`Client "${subject.client}" on skill "${checked}"`, limits.perClientSkill);
  }
  if (subject.sender === null) return undefined;
  const hour = limits.windowMs / 60_000;
  const busy = (what: string, limit: number, oldest: string | null) => {
    // The window frees a place when its oldest piece leaves it.
    const freesAt = (oldest ? Date.parse(oldest) : now.getTime()) + limits.windowMs;
    const retryAfterSeconds = Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000));
    return createError("FEEDBACK_LIMIT", `${what} took ${limit} new pieces of feedback in the last ${hour} minutes, whoever sent them: try again in ${retryAfterSeconds} s`, {
      limit,
      windowSeconds: limits.windowMs / 1000,
      retryAfterSeconds,
    });
  };
  if (subject.skill !== null && counts.skillRecent >= limits.perSkillInWindow) return busy(`Skill "${subject.skill}"`, limits.perSkillInWindow, counts.skillOldest);
  if (subject.wrong !== null && counts.wrongRecent >= limits.perSkillInWindow) return busy(`Skill "${subject.wrong}"`, limits.perSkillInWindow, counts.wrongOldest);
  if (counts.senderRecent >= limits.perSenderInWindow) return busy("This sender", limits.perSenderInWindow, counts.senderOldest);
  return undefined;
}
