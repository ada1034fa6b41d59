import { createHash } from "node:crypto";
import type { Settings } from "../config/settings.js";
import type { RouteResult } from "../contract/route.js";

// Enough runners-up to see why the winner won, without one line carrying every ranked skill.
const LOGGED_CANDIDATES = 3;

/** One decision-log line: what was asked (or its hash), what was decided, on which index, how fast, and why. */
export function decisionLine(mode: Exclude<Settings["decisionLog"], "off">, query: string, result: RouteResult, requestId: string, latencyMs: number): Record<string, unknown> {
  return {
    event: "route",
    request_id: requestId,
    ...(mode === "query" ? { query } : { query_sha256: createHash("sha256").update(query).digest("hex") }),
    query_chars: query.length,
    decision: result.decision,
    selected: result.selected,
    reason: result.reason,
    invoked: result.invoked,
    in_scope: result.in_scope,
    threshold: result.threshold,
    candidates: result.skills.slice(0, LOGGED_CANDIDATES).map((skill) => ({ name: skill.name, confidence: skill.confidence, share: skill.share, signals: skill.signals })),
    index_version: result.index_version,
    embedder: result.embedder,
    latency_ms: Math.round(latencyMs * 100) / 100,
    timing_ms: result.timing_ms,
  };
}
