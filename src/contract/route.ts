import { z } from "zod";
import { DEFAULT_K, MAX_CONTEXT_MESSAGES, MAX_K, MAX_QUERY_CHARS, MAX_SKILL_NAME_CHARS, MAX_SKILL_NAMES } from "./limits.js";

// The route contract: what `POST /route`, `router.route()`, `router route`, MCP `find_skill` and the client accept
// and answer. TypeScript types, the OpenAPI document and every validation derive from these schemas.

const skillName = z.string().min(1).max(MAX_SKILL_NAME_CHARS);

/** A user's message as every request carries it: routed, or the subject of feedback. */
export const userMessageSchema = z
  .string()
  .max(MAX_QUERY_CHARS)
  .refine((query) => query.trim() !== "", "The query is empty or only whitespace");

export const contextMessageSchema = z.union([z.string().max(MAX_QUERY_CHARS), z.object({ role: z.string().max(64).optional(), content: z.string().max(MAX_QUERY_CHARS) })]);

export const routeOptionsSchema = z
  .object({
    context: z
      .array(contextMessageSchema)
      .max(MAX_CONTEXT_MESSAGES)
      .optional()
      .meta({ description: `Up to ${MAX_CONTEXT_MESSAGES} recent messages, oldest first; weighed less than the query.` }),
    k: z
      .number()
      .int()
      .min(1)
      .max(MAX_K)
      .optional()
      .meta({ description: `How many ranked skills to return (default ${DEFAULT_K}, at most ${MAX_K}).` }),
    threshold: z.number().min(0).max(1).optional().meta({ description: "In-scope threshold to use instead of the learned one." }),
    skills: z.array(skillName).max(MAX_SKILL_NAMES).optional().meta({ description: "Choose only among these skill names; the rest of the index is still scored, as what else fits the message." }),
    exclude: z.array(skillName).max(MAX_SKILL_NAMES).optional().meta({ description: "Never route to these skill names." }),
    include: z
      .array(z.enum(["body"]))
      .max(1)
      .optional()
      .meta({ description: '["body"] returns what to inject with each ranked skill.' }),
    multi: z.boolean().optional().meta({ description: "Inject every skill above the threshold, up to k." }),
    offer: z
      .boolean()
      .optional()
      .meta({ description: "Answer `offer` with a short list for the agent to choose from when the router is not sure (the default); false answers only inject or none, as before 0.2." }),
  })
  .strict();

export const routeRequestSchema = routeOptionsSchema
  .extend({
    query: userMessageSchema.meta({ description: "The user's message", example: "my pod keeps restarting with CrashLoopBackOff" }),
  })
  .strict()
  .meta({ id: "RouteRequest" });

export const signalsSchema = z
  .object({
    q2q_max: z.number().meta({ description: "Best cosine similarity to one of the skill's synthetic queries (query-to-query)." }),
    q2q_topk: z.number().meta({ description: "Mean cosine similarity to the skill's three closest synthetic queries." }),
    q2d: z.number().meta({ description: "Cosine similarity to the skill's description (query-to-document)." }),
    q2c: z.number().meta({ description: "Cosine similarity to the centroid of the skill's synthetic queries and description." }),
    bm25: z.number().meta({ description: "BM25 over name, description, body start, keywords, phrases and queries, squashed into [0, 1)." }),
    keyword_hits: z.number().meta({ description: "Manifest keywords found in the query." }),
    phrase_hits: z.number().meta({ description: "Manifest phrases whose words all appear in the query." }),
    negative: z.number().meta({ description: "How far the closest negative outscores the closest positive (0 when it does not)." }),
    rerank: z.number().optional().meta({ description: "Cross-encoder relevance in [0, 1], when the tie-break read this candidate." }),
  })
  .meta({ id: "Signals", description: "The evidence behind one candidate's confidence; every score is shown so a person can check it." });

export const skillKindSchema = z.enum(["skill", "tool"]);

export const routeRiskSchema = z
  .object({
    rule: z.string().meta({ description: "The risky-skill rule broken (docs/formats.md lists them), e.g. download-and-run." }),
    warning: z.string().meta({ description: "What the skill asks for, in words the agent is shown before its text." }),
    line: z.number().int().meta({ description: "1-based line in the skill's source file." }),
    excerpt: z.string().meta({ description: "What matched, cut short." }),
  })
  .meta({ id: "RouteRisk" });

export const rankedSkillSchema = z
  .object({
    name: z.string(),
    kind: skillKindSchema,
    description: z.string(),
    confidence: z.number().meta({ description: "Calibrated probability that injecting this skill is right: in_scope x share." }),
    share: z.number().meta({ description: "Probability that this is the skill, given that some skill applies." }),
    tokens: z.number().int().meta({ description: "Tokens injecting it would cost." }),
    signals: signalsSchema,
    matched: z.object({ keywords: z.array(z.string()), phrases: z.array(z.string()) }).meta({ description: "The manifest keywords and phrases found in the query." }),
    nearest_query: z.string().nullable().meta({ description: "The synthetic query closest to the user's message." }),
    nearest_from_use: z.boolean().meta({ description: "The nearest query is a request confirmed for this skill by feedback, not one of its manifest's." }),
    from_use: z
      .object({
        close: z.number().int().meta({ description: "Requests confirmed for this skill by feedback close to this message: one earns it an offer." }),
        same: z.number().int().meta({ description: "Of those, the ones that say the same thing (near in meaning, or sharing a word only use taught the skill): three inject it." }),
      })
      .meta({ description: "Evidence from use: no floor measured before the feedback existed vetoes it." }),
    negative: z.string().nullable().meta({ description: "The near-miss request that penalised this skill, if one did." }),
    body: z.string().optional().meta({ description: 'The text to inject, when `include: ["body"]` was asked for.' }),
    risks: z
      .array(routeRiskSchema)
      .meta({ description: "What the risky-skill rules flagged in this skill at index time; empty for most skills. A flagged skill is never injected unless the message calls it by name." }),
  })
  .meta({ id: "RankedSkill" });

export const NONE_REASONS = ["no_evidence", "near_miss", "not_retrieved", "below_threshold", "small_margin", "no_candidates", "empty_index"] as const;
/** Why the router offered a list instead of injecting: evidence short of the injection rule, or a flagged best skill. */
export const OFFER_REASONS = ["unsure", "risky"] as const;

export const offeredSkillSchema = z
  .object({
    name: z.string(),
    kind: skillKindSchema,
    description: z.string().meta({ description: "The description as its author wrote it (at most 1,024 characters, as agents show it)." }),
    confidence: z.number().meta({ description: "The calibrated probability that this skill is the right one to load." }),
    tokens: z.number().int().meta({ description: "Tokens loading it would add." }),
    risks: z.array(routeRiskSchema),
  })
  .meta({ id: "OfferedSkill" });

export const offerSchema = z
  .object({
    skills: z.array(offeredSkillSchema).meta({ description: "The skills the agent should choose from, best first: load one if it fits, else none." }),
    holds_right_skill: z.number().nullable().meta({
      description: "How often a list built this way held the right skill on this index's own held-out requests (`router index` measures it); null when the index is too small to measure.",
    }),
    text: z.string().meta({ description: "The list as an agent reads it: each skill's name and description, and how to load one." }),
    tokens: z.number().int().meta({ description: "Tokens `text` adds to the agent's context." }),
  })
  .meta({ id: "Offer", description: "A short list for the agent to choose from, when the router is not sure which skill fits." });

export const routeTimingSchema = z
  .object({
    embed: z.number(),
    retrieve: z.number(),
    score: z.number(),
    rerank: z.number(),
    total: z.number(),
    cached: z.boolean().meta({ description: "True when this index version answered the same request before and the answer was reused: no stage ran." }),
  })
  .meta({ description: "Milliseconds per stage." });

export const routeResultSchema = z
  .object({
    decision: z.enum(["inject", "offer", "none"]).meta({
      description: "inject: add the selected skill's text; offer: show the agent `offer` and let it load one or none; none: no skill fits.",
    }),
    selected: z.array(z.string()).meta({ description: "The skills to inject: one, or several in multi mode; empty unless the decision is inject." }),
    offer: offerSchema.nullable().meta({ description: "The short list, when the decision is offer; null otherwise." }),
    skills: z.array(rankedSkillSchema).meta({ description: "Ranked candidates, best first (at most k)." }),
    reason: z
      .enum([...NONE_REASONS, ...OFFER_REASONS])
      .nullable()
      .meta({ description: "Why the router did not inject: a none reason, or why it offered a list." }),
    in_scope: z.number().meta({ description: "Probability that some skill applies to the message at all." }),
    threshold: z.number().meta({ description: "The in-scope threshold the decision used." }),
    min_margin: z.number().meta({ description: "The lead over the runner-up's confidence the decision needed." }),
    evidence_floor: z
      .object({
        bm25: z.number().meta({ description: "BM25 a skill with a heuristic manifest must reach (0 where this floor does not apply: allow-lists, fitted parameters)." }),
        q2q_max: z.number().meta({ description: "Similarity to its nearest query a skill needs when no word of the message matched it." }),
      })
      .nullable()
      .meta({
        description: "The evidence the best skill had to show: what requests whose skill is absent reach on this index, measured by `router index`. Null when the index is too small to measure.",
      }),
    invoked: z.string().nullable().meta({
      description:
        "The skill the message calls by name, as agents let users do: `$name` anywhere or `/name` at its start. It ranks first and is injected whatever its scores. Null when no indexed skill is named.",
    }),
    warnings: z.array(z.string()),
    route_id: z.string().meta({ description: "Names this answer: send it with POST /feedback to say whether the answer was right (the server remembers its recent answers)." }),
    timing_ms: routeTimingSchema,
    index_version: z.number().int(),
    embedder: z.string().nullable(),
    reranker: z.string().nullable().meta({ description: "The cross-encoder breaking ties, or null when that stage is off." }),
  })
  .meta({ id: "RouteResponse" });

export type ContextMessage = z.infer<typeof contextMessageSchema>;
export type RouteRequest = z.infer<typeof routeRequestSchema>;
export type RouteOptions = z.infer<typeof routeOptionsSchema> & {
  /** Stops the work when it fires (checked between embedding, scoring and the tie-break); the route rejects with its reason. Library only. */
  signal?: AbortSignal;
};
export type Signals = z.infer<typeof signalsSchema>;
export type RankedSkill = z.infer<typeof rankedSkillSchema>;
export type RouteResult = z.infer<typeof routeResultSchema>;

/** A message and the id of the router's answer to it: what an integration keeps to report on that answer later. */
export interface AnsweredQuery {
  query: string;
  route_id: string;
}
export type RouteTiming = z.infer<typeof routeTimingSchema>;
export type Decision = RouteResult["decision"];
export type NoneReason = (typeof NONE_REASONS)[number];
export type OfferReason = (typeof OFFER_REASONS)[number];
export type Offer = z.infer<typeof offerSchema>;
export type OfferedSkill = z.infer<typeof offeredSkillSchema>;
export type RouteRisk = z.infer<typeof routeRiskSchema>;
export type SkillKind = z.infer<typeof skillKindSchema>;
