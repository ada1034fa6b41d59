// What reaches the agent: a router's answer scored with a strong LLM's judgments of which offered skill it would load
// (../shared/eval/trigger-dev/agent-judgments.jsonl; its README says how to score them, and this follows it).
import { readFileSync } from "node:fs";
import { offerText } from "../src/contract/offer-text.js";
import type { RankedSkill, RouteResult } from "../src/contract/route.js";
import { countTokens } from "../src/text/token-count.js";

/** One judged request: the skills shown to the agent, the one it would load (or none), and others it would accept. */
export interface AgentJudgment {
  query: string;
  offered: string[];
  pick: string | null;
  also: string[];
}

/** The judgments by request text. */
export function readJudgments(file: string): Map<string, AgentJudgment> {
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  return new Map(lines.map((line) => JSON.parse(line) as AgentJudgment).map((judgment) => [judgment.query, judgment]));
}

/** A skill as the agent gets it: its name, and the tokens its body adds once loaded. */
type HandedSkill = Pick<RankedSkill, "name" | "tokens">;

/** What an answer hands the agent: a skill injected, a list offered, or nothing. */
export type Handed = { kind: "inject"; skill: HandedSkill } | { kind: "offer"; skills: HandedSkill[]; tokens: number } | { kind: "none" };

/** The router's own answer as the agent receives it. */
export function handedBy(result: RouteResult): Handed {
  if (result.decision === "inject") return { kind: "inject", skill: result.skills.find((skill) => skill.name === result.selected[0])! };
  if (result.decision === "offer" && result.offer) return { kind: "offer", skills: result.offer.skills, tokens: result.offer.tokens };
  return { kind: "none" };
}

/** A list of the first `size` ranked skills, whatever the decision: the "always offer" baseline. */
export function offeringTop(result: RouteResult, size: number): Handed {
  const skills = result.skills.slice(0, size);
  if (skills.length === 0) return { kind: "none" };
  return { kind: "offer", skills, tokens: countTokens(offerText(skills, "with your skill-loading tool")) };
}

/** What the agent loads, and the tokens added to its context: an injected skill is used; from a list it loads its pick if listed, else the first listed skill it would also accept, else none. */
export function agentLoads(handed: Handed, judgment: AgentJudgment | undefined): { loaded: string | null; tokens: number; unjudged: number } {
  if (handed.kind === "none") return { loaded: null, tokens: 0, unjudged: 0 };
  if (handed.kind === "inject") return { loaded: handed.skill.name, tokens: handed.skill.tokens, unjudged: 0 };
  const names = handed.skills.map((skill) => skill.name);
  // A listed skill the judge was never shown counts as not loaded.
  const unjudged = names.filter((name) => !judgment?.offered.includes(name)).length;
  const pick = judgment?.pick && names.includes(judgment.pick) ? judgment.pick : (names.find((name) => judgment?.also.includes(name)) ?? null);
  const body = pick === null ? 0 : handed.skills.find((skill) => skill.name === pick)!.tokens;
  return { loaded: pick, tokens: handed.tokens + body, unjudged };
}

export interface ReachCounts {
  positives: number;
  /** Positives whose right skill the agent ends up with. */
  rightReached: number;
  negatives: number;
  /** Near misses whose own skill (the one they must not trigger) the agent loads, and those where it loads any. */
  ownLoaded: number;
  anyLoaded: number;
  /** Tokens added to the agent's context, one entry per request. */
  tokens: number[];
  /** Answers by kind, offers by size. */
  injected: number;
  /** Injections of the expected skill (positives only: a near miss's right skill is unknown). */
  injectedRight: number;
  offerSizes: Record<number, number>;
  none: number;
  /** Listed skills the judge was never shown (counted as not loaded). */
  unjudged: number;
}

export function emptyReach(): ReachCounts {
  return { positives: 0, rightReached: 0, negatives: 0, ownLoaded: 0, anyLoaded: 0, tokens: [], injected: 0, injectedRight: 0, offerSizes: {}, none: 0, unjudged: 0 };
}

/** Adds one case's outcome: `expected` null for a near miss of `source`. */
export function countReach(counts: ReachCounts, handed: Handed, judgment: AgentJudgment | undefined, expected: string | null, source: string): void {
  const { loaded, tokens, unjudged } = agentLoads(handed, judgment);
  counts.tokens.push(tokens);
  counts.unjudged += unjudged;
  if (handed.kind === "inject") counts.injected++;
  else if (handed.kind === "offer") counts.offerSizes[handed.skills.length] = (counts.offerSizes[handed.skills.length] ?? 0) + 1;
  else counts.none++;
  if (expected !== null) {
    counts.positives++;
    if (loaded === expected) counts.rightReached++;
    if (handed.kind === "inject" && loaded === expected) counts.injectedRight++;
  } else {
    counts.negatives++;
    if (loaded === source) counts.ownLoaded++;
    if (loaded !== null) counts.anyLoaded++;
  }
}

/** Requests that need no skill (everyday chat, out-of-scope intents): how many get an offer or an injection, and the tokens they add. */
export interface EverydayCounts {
  requests: number;
  offered: number;
  injected: number;
  tokens: number[];
}

export function countEveryday(counts: EverydayCounts, handed: Handed): void {
  counts.requests++;
  if (handed.kind === "offer") counts.offered++;
  if (handed.kind === "inject") counts.injected++;
  // The agent loads nothing for them: what it reads is the list, or the injected body.
  counts.tokens.push(handed.kind === "offer" ? handed.tokens : handed.kind === "inject" ? handed.skill.tokens : 0);
}

/** Mean and 95th percentile of a list of token counts. */
export function tokenFigures(tokens: number[]): { mean: number; p95: number } {
  const sorted = [...tokens].sort((a, b) => a - b);
  return { mean: sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length), p95: sorted[Math.floor(0.95 * (sorted.length - 1))] ?? 0 };
}
