import type { Settings } from "../config/settings.js";
import { FEEDBACK_LIMITS, type FeedbackLimits } from "../store/feedback-limits.js";
import type { FeedbackStore } from "./feedback-store.js";
import { indexFeedbackStore } from "./index-feedback-store.js";

export type FeedbackStoreSettings = Pick<Settings, "db" | "feedbackUrl" | "feedbackSkillHourly" | "feedbackSenderHourly">;

/** The store the settings name: PostgreSQL when `feedbackUrl` is set (its client loads only then), else the index itself. */
export async function createFeedbackStore(settings: FeedbackStoreSettings, options: { waitMs: number }): Promise<FeedbackStore> {
  const limits = feedbackLimits(settings);
  if (!settings.feedbackUrl) return indexFeedbackStore(settings.db, { waitMs: options.waitMs, limits });
  const { postgresFeedbackStore } = await import("./postgres-feedback-store.js");
  return postgresFeedbackStore(settings.feedbackUrl, { limits });
}

/** The shipped limits with the windows the settings give. */
export function feedbackLimits(settings: Pick<Settings, "feedbackSkillHourly" | "feedbackSenderHourly">): FeedbackLimits {
  return { ...FEEDBACK_LIMITS, perSkillInWindow: settings.feedbackSkillHourly, perSenderInWindow: settings.feedbackSenderHourly };
}
