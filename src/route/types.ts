import type { SkillKind } from "../skills/types.js";

/** A message of the recent conversation, used with less weight than the query itself. */
export type ContextMessage = string | { role?: string; content: string };

export interface RouteOptions {
  /** Recent messages, oldest first. */
  context?: ContextMessage[];
  /** How many ranked skills to return (and, in multi mode, the most to inject). */
  k?: number;
  /** Overrides the calibrated confidence threshold for this request. */
  threshold?: number;
  /** Route only among these skill names (what this agent may use). */
  skills?: string[];
  /** Never route to these skill names. */
  exclude?: string[];
  /** `body`: return each ranked skill's injection text. */
  include?: "body"[];
  /** Inject every skill above the threshold (up to k) instead of only the best one. */
  multi?: boolean;
  /** Stops the work when it fires (checked between embedding, scoring and reranking); the route rejects with its reason. */
  signal?: AbortSignal;
}

/** The evidence behind one candidate's confidence; every score is shown so a person can check it. */
export interface Signals {
  /** Best cosine similarity to one of the skill's synthetic queries (query-to-query). */
  q2q_max: number;
  /** Mean cosine similarity to the skill's three closest synthetic queries. */
  q2q_topk: number;
  /** Cosine similarity to the skill's description (query-to-document). */
  q2d: number;
  /** Cosine similarity to the centroid of the skill's synthetic queries and description. */
  q2c: number;
  /** BM25 over name, description, keywords, phrases and queries, squashed into [0, 1). */
  bm25: number;
  /** Manifest keywords found in the query. */
  keyword_hits: number;
  /** Manifest phrases whose words all appear in the query. */
  phrase_hits: number;
  /** How far the closest negative outscores the closest positive (0 when it does not). */
  negative: number;
  /** Cross-encoder relevance in [0, 1], when the reranker ran on this candidate. */
  rerank?: number;
}

export interface RankedSkill {
  name: string;
  kind: SkillKind;
  description: string;
  /** Calibrated probability that injecting this skill is right: in_scope x share. */
  confidence: number;
  /** Probability that this is the skill, given that some skill applies. */
  share: number;
  /** Tokens injecting it would cost. */
  tokens: number;
  signals: Signals;
  matched: { keywords: string[]; phrases: string[] };
  /** The synthetic query closest to the user's message. */
  nearest_query: string | null;
  /** The near-miss request that penalised this skill, if one did. */
  negative: string | null;
  /** The text to inject, when `include: ["body"]` was asked for. */
  body?: string;
}

export type Decision = "inject" | "none";

/** Why the router abstained. */
export type NoneReason = "no_evidence" | "below_threshold" | "small_margin" | "no_candidates" | "empty_index";

export interface RouteTiming {
  embed: number;
  retrieve: number;
  score: number;
  rerank: number;
  total: number;
}

export interface RouteResult {
  decision: Decision;
  /** The skills to inject: one, or several in multi mode; empty when the decision is none. */
  selected: string[];
  /** Ranked candidates, best first (at most k). */
  skills: RankedSkill[];
  reason: NoneReason | null;
  /** Probability that some skill applies to the message at all. */
  in_scope: number;
  /** The in-scope threshold the decision used. */
  threshold: number;
  min_margin: number;
  warnings: string[];
  timing_ms: RouteTiming;
  index_version: number;
  embedder: string | null;
  reranker: string | null;
}
