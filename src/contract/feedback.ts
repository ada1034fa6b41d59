import { z } from "zod";
import { MAX_SKILL_NAME_CHARS } from "./limits.js";
import { userMessageSchema } from "./route.js";

// The feedback contract: what `POST /feedback`, `router feedback`, the client's `feedback()` and MCP `report_skill`
// accept and answer. A user's own requests are the best examples a skill can have: each answer confirmed or corrected
// teaches the index (docs/routing.md, "Learning from use").

export const feedbackRequestSchema = z
  .object({
    query: userMessageSchema.meta({ description: "The user's message, as it was routed.", example: "my pod keeps restarting with CrashLoopBackOff" }),
    skill: z.string().min(1).max(MAX_SKILL_NAME_CHARS).nullable().meta({ description: "The skill that should have been injected for it, or null when none should have been." }),
    route_id: z.string().max(64).optional().meta({ description: "The `route_id` of the answer this is about: it says which skill was injected." }),
  })
  .strict()
  .meta({ id: "FeedbackRequest" });

export const feedbackEntrySchema = z
  .object({
    id: z.number().int(),
    query: z.string(),
    skill: z.string().nullable(),
    wrong: z.string().nullable().meta({ description: "The skill injected instead, which now has this request among its negatives." }),
    role: z.enum(["example", "rejected", "none"]).meta({
      description:
        "example: the request is now an example of `skill`; rejected: it is kept but not learned, since it matches one of the skill's own near misses (see `note`); none: no skill should answer it.",
    }),
    note: z.string().meta({ description: "What it taught, or why it was not learned." }),
    client: z.string(),
    times: z.number().int().meta({ description: "How often this was said: the same word again counts once." }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "FeedbackEntry" });

export const feedbackResultSchema = z
  .object({
    stored: feedbackEntrySchema,
    duplicate: z.boolean().meta({ description: "The same was already said of this request: nothing new was learned." }),
    applies: z.string().meta({ description: "When it takes effect: in the running server within seconds, else on the next `router index` or `router feedback apply`." }),
  })
  .meta({ id: "FeedbackResponse" });

export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;
export type FeedbackEntry = z.infer<typeof feedbackEntrySchema>;
export type FeedbackResult = z.infer<typeof feedbackResultSchema>;
