import { z } from "zod";

// The server's own answers; the route and skill contract is in src/contract.
export { errorSchema } from "../contract/skills.js";
export { routeRequestSchema, routeResultSchema as routeResponseSchema } from "../contract/route.js";
export { skillDetailSchema, skillSummarySchema } from "../contract/skills.js";
export { feedbackRequestSchema, feedbackResultSchema } from "../contract/feedback.js";

export const healthSchema = z.object({ status: z.literal("ok"), version: z.string() }).meta({ id: "Health" });

export const readinessSchema = z
  .object({
    ready: z.boolean(),
    draining: z.boolean().meta({ description: "Shutting down: in-flight requests finish, new traffic should go elsewhere." }),
    index: z.object({ version: z.number().int(), skills: z.number().int(), embedder: z.string().nullable(), fusion: z.string() }).nullable(),
    reranker: z.string().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: "Readiness" });

export type Readiness = z.infer<typeof readinessSchema>;
