import type { FusionParams } from "./fusion.js";
import type { Decision, NoneReason } from "./types.js";

export interface RankedCandidate {
  name: string;
  confidence: number;
  heuristicManifest: boolean;
}

/** The learned parts of the rule: what `router fit` chooses and every request applies. */
export type DecisionParams = Pick<FusionParams, "threshold" | "heuristicThreshold" | "minMargin" | "skillThresholds">;

export interface DecisionRule {
  /** Overrides every learned threshold. */
  threshold?: number;
  multi?: boolean;
  k: number;
}

export interface DecisionOutcome {
  decision: Decision;
  selected: string[];
  reason: NoneReason | null;
  threshold: number;
}

/**
 * Inject when P(some skill applies) reaches the threshold (the best candidate's own, else the one for its
 * kind of manifest) AND the
 * best candidate's confidence leads the runner-up's by the minimum margin. Multi mode injects every
 * candidate whose confidence reaches the threshold, up to k. Otherwise: none.
 */
export function decide(ranked: RankedCandidate[], inScope: number, params: DecisionParams, rule: DecisionRule): DecisionOutcome {
  const thresholdOf = (candidate: RankedCandidate) =>
    rule.threshold ?? params.skillThresholds[candidate.name] ?? (candidate.heuristicManifest ? params.heuristicThreshold : params.threshold);
  const [best, runnerUp] = ranked;
  if (!best) return { decision: "none", selected: [], reason: "no_candidates", threshold: rule.threshold ?? params.threshold };
  const threshold = thresholdOf(best);
  if (inScope < threshold) return { decision: "none", selected: [], reason: "below_threshold", threshold };
  if (rule.multi) {
    const chosen = ranked.filter((candidate) => candidate.confidence >= thresholdOf(candidate)).slice(0, rule.k);
    const selected = (chosen.length > 0 ? chosen : [best]).map((candidate) => candidate.name);
    return { decision: "inject", selected, reason: null, threshold };
  }
  if (runnerUp && best.confidence - runnerUp.confidence < params.minMargin) return { decision: "none", selected: [], reason: "small_margin", threshold };
  return { decision: "inject", selected: [best.name], reason: null, threshold };
}
