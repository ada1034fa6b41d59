import { z } from "@hono/zod-openapi";
import { MAX_QUERY_CHARS } from "../route/query-limit.js";
const MAX_CONTEXT_MESSAGES = 20;

const contextMessage = z.union([
  z.string().max(MAX_QUERY_CHARS),
  z.object({ role: z.string().max(64).optional(), content: z.string().max(MAX_QUERY_CHARS) }),
]);

export const routeRequestSchema = z
  .object({
    query: z.string().min(1).max(MAX_QUERY_CHARS).openapi({ example: "my pod keeps restarting with CrashLoopBackOff" }),
    context: z.array(contextMessage).max(MAX_CONTEXT_MESSAGES).optional().openapi({ description: "Recent messages, oldest first; weighed less than the query." }),
    k: z.number().int().min(1).max(50).optional().openapi({ description: "How many ranked skills to return (default 3)." }),
    threshold: z.number().min(0).max(1).optional().openapi({ description: "In-scope threshold to use instead of the learned one." }),
    skills: z.array(z.string().min(1)).max(100_000).optional().openapi({ description: "Route only among these skill names." }),
    exclude: z.array(z.string().min(1)).max(100_000).optional().openapi({ description: "Never route to these skill names." }),
    include: z.array(z.enum(["body"])).max(1).optional().openapi({ description: '["body"] returns what to inject with each ranked skill.' }),
    multi: z.boolean().optional().openapi({ description: "Inject every skill above the threshold, up to k." }),
  })
  .strict()
  .openapi("RouteRequest");

const signalsSchema = z
  .object({
    q2q_max: z.number(),
    q2q_topk: z.number(),
    q2d: z.number(),
    q2c: z.number(),
    bm25: z.number(),
    keyword_hits: z.number(),
    phrase_hits: z.number(),
    negative: z.number(),
    rerank: z.number().optional(),
  })
  .openapi("Signals");

const rankedSkillSchema = z
  .object({
    name: z.string(),
    kind: z.enum(["skill", "tool"]),
    description: z.string(),
    confidence: z.number().openapi({ description: "Probability that injecting this skill is right: in_scope x share." }),
    share: z.number().openapi({ description: "Probability that this is the skill, given that some skill applies." }),
    tokens: z.number().int(),
    signals: signalsSchema,
    matched: z.object({ keywords: z.array(z.string()), phrases: z.array(z.string()) }),
    nearest_query: z.string().nullable(),
    negative: z.string().nullable(),
    body: z.string().optional(),
  })
  .openapi("RankedSkill");

export const routeResponseSchema = z
  .object({
    decision: z.enum(["inject", "none"]),
    selected: z.array(z.string()),
    skills: z.array(rankedSkillSchema),
    reason: z.enum(["no_evidence", "below_threshold", "small_margin", "no_candidates", "empty_index"]).nullable(),
    in_scope: z.number(),
    threshold: z.number(),
    min_margin: z.number(),
    warnings: z.array(z.string()),
    timing_ms: z.object({ embed: z.number(), retrieve: z.number(), score: z.number(), rerank: z.number(), total: z.number() }),
    index_version: z.number().int(),
    embedder: z.string().nullable(),
    reranker: z.string().nullable(),
  })
  .openapi("RouteResponse");

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: "QUERY_EMPTY" }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .openapi("Error");

export const skillSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(["skill", "tool"]),
    format: z.string(),
    description: z.string(),
    tokens: z.number().int(),
    sourcePath: z.string(),
  })
  .openapi("SkillSummary");

export const skillDetailSchema = skillSummarySchema
  .extend({
    body: z.string().openapi({ description: "Exactly what would be injected." }),
    metadata: z.record(z.string(), z.unknown()),
    warnings: z.array(z.string()),
  })
  .openapi("SkillDetail");

export const healthSchema = z.object({ status: z.literal("ok"), version: z.string() }).openapi("Health");

export const readinessSchema = z
  .object({
    ready: z.boolean(),
    draining: z.boolean().openapi({ description: "Shutting down: in-flight requests finish, new traffic should go elsewhere." }),
    index: z.object({ version: z.number().int(), skills: z.number().int(), embedder: z.string().nullable(), fusion: z.string() }).nullable(),
    reranker: z.string().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .openapi("Readiness");
