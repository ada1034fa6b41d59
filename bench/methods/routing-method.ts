import type { Decision } from "../../src/contract/route.js";

/** What one method answered for a query: ranked skills, its decision, and how much of the time went to embedding. */
export interface MethodAnswer {
  /** Skill names, best first (at most EVAL_K). */
  ranked: string[];
  /** The best candidate's calibrated confidence; 0 for methods that have none (see `calibrated`). */
  confidence: number;
  decision: Decision;
  selected: string[];
  /** The skills an offer listed (the router's offers; other methods never offer). */
  offered?: string[];
  /** Milliseconds spent embedding the query (0 for lexical methods). */
  embedMs: number;
}

/** One way to route (a baseline or the router itself); every implementation passes test/eval/routing-method-conformance.ts. */
export interface RoutingMethod {
  /** Whether `confidence` is a probability (so calibration error means something). */
  readonly calibrated: boolean;
  /** Routes among `candidates` when given, else among every skill. */
  route(query: string, candidates?: string[]): Promise<MethodAnswer>;
  close(): Promise<void>;
}
