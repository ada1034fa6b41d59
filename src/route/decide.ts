import type { EvidenceFloor } from "../store/evidence-floor.js";
import type { RoutingParams } from "./routing-params.js";
import type { Evidence } from "./signals.js";
import type { Decision, NoneReason } from "../contract/route.js";

export interface RankedCandidate {
  name: string;
  confidence: number;
  heuristicManifest: boolean;
  /** BM25 squashed into [0, 1). */
  bm25: number;
  /** Some query term is in the skill's texts, or a keyword or phrase matched. */
  lexicalHit: boolean;
  /** Best similarity to one of the skill's synthetic queries (0 when the embedder cannot read the query). */
  q2qMax: number;
  /** The retrievers find it in the whole index, not only among an allow-list (always true without one). */
  retrieved: boolean;
  /** One of its manifest's negatives holds more of the request's words than any of its queries (route/near-miss.ts). */
  nearMiss: boolean;
}

/** The learned parts of the rule: what `router fit` chooses and every request applies. */
export type DecisionParams = Pick<RoutingParams, "threshold" | "heuristicThreshold" | "minMargin" | "skillThresholds" | "evidenceFloor" | "requestScope">;

export interface DecisionRule {
  /** Overrides every learned threshold. */
  threshold?: number;
  multi?: boolean;
  k: number;
  /** Routing among an allow-list: the lexical floor, measured over the whole index, does not apply. */
  restricted?: boolean;
  /** The query is mostly in a script other than Latin (CJK text shares far more BM25 terms): its own lexical floor applies. */
  otherScript?: boolean;
  /** The best candidate is the skill the message calls by name (`$name`, `/name`): injected whatever its scores. */
  invoked?: boolean;
}

/** A scored candidate as the decision reads it. */
export function rankedCandidate(name: string, confidence: number, evidence: Evidence, retrieved = true, nearMiss = false): RankedCandidate {
  const { signals } = evidence;
  const lexicalHit = evidence.bm25Raw > 0 || signals.keyword_hits + signals.phrase_hits > 0;
  return { name, confidence, heuristicManifest: evidence.heuristicManifest, bm25: signals.bm25, lexicalHit, q2qMax: signals.q2q_max, retrieved, nearMiss };
}

export interface DecisionOutcome {
  decision: Decision;
  selected: string[];
  reason: NoneReason | null;
  threshold: number;
  /** The evidence the best candidate was held to (BM25 0 where the lexical floor does not apply); null without a floor. */
  evidenceFloor: AppliedFloor | null;
}

export interface AppliedFloor {
  bm25: number;
  q2qMax: number;
}

/**
 * Inject when the best candidate has evidence (see `supported`), is not a near miss its manifest names, and, under an
 * allow-list, the retrievers find it in the whole index too (an allow-list narrows the choice, it is no evidence), P(some skill applies) reaches the threshold
 * (the best candidate's own, else the one for its kind of manifest) AND the best candidate's confidence leads
 * the runner-up's by the minimum margin. Multi mode injects every candidate whose confidence reaches the
 * threshold, up to k. Otherwise: none. A skill the message calls by name is injected (first, in multi mode).
 */
export function decide(ranked: RankedCandidate[], inScope: number, params: DecisionParams, rule: DecisionRule): DecisionOutcome {
  const thresholdOf = (candidate: RankedCandidate) =>
    rule.threshold ?? params.skillThresholds[candidate.name] ?? (candidate.heuristicManifest ? params.heuristicThreshold : (params.requestScope?.threshold ?? params.threshold));
  const [best, runnerUp] = ranked;
  const evidenceFloor = params.evidenceFloor ? appliedFloor(params.evidenceFloor, rule) : null;
  const none = (reason: NoneReason, threshold: number): DecisionOutcome => ({ decision: "none", selected: [], reason, threshold, evidenceFloor });
  if (!best) return none("no_candidates", rule.threshold ?? params.threshold);
  const threshold = thresholdOf(best);
  // A skill the message calls by name needs no evidence, scope or lead.
  if (!rule.invoked) {
    if (!best.retrieved) return none("not_retrieved", threshold);
    if (evidenceFloor && !supported(best, evidenceFloor)) return none("no_evidence", threshold);
    if (best.nearMiss) return none("near_miss", threshold);
    if (inScope < threshold) return none("below_threshold", threshold);
    if (!rule.multi && runnerUp && best.confidence - runnerUp.confidence < params.minMargin) return none("small_margin", threshold);
  }
  if (rule.multi) {
    const chosen = ranked.filter((candidate) => (rule.invoked && candidate === best) || (candidate.retrieved && candidate.confidence >= thresholdOf(candidate))).slice(0, rule.k);
    const selected = (chosen.length > 0 ? chosen : [best]).map((candidate) => candidate.name);
    return { decision: "inject", selected, reason: null, threshold, evidenceFloor };
  }
  return { decision: "inject", selected: [best.name], reason: null, threshold, evidenceFloor };
}

/** The floor a request is held to: an allow-list's candidates skip the lexical floor, measured over the whole index. */
function appliedFloor(floor: EvidenceFloor, rule: DecisionRule): AppliedFloor {
  const bm25 = rule.restricted ? 0 : rule.otherScript ? (floor.bm25OtherScripts ?? floor.bm25) : floor.bm25;
  return { bm25, q2qMax: floor.q2qMax };
}

/**
 * Evidence a skill applies, beyond what this index shows when the right skill is absent: a lexical hit or a
 * dense match above the floor, and for a heuristic manifest (description sentences, not user requests, so its
 * dense scores say little) BM25 at or above the lexical floor.
 */
function supported(best: RankedCandidate, floor: AppliedFloor): boolean {
  if (!best.lexicalHit && best.q2qMax < floor.q2qMax) return false;
  return !best.heuristicManifest || best.bm25 >= floor.bm25;
}
