import { dotRow } from "../models/vector-math.js";
import type { AbstainExamples } from "../store/abstain-examples.js";
import type { KeywordMatch } from "./keyword-match.js";
import type { LexicalIndex } from "./lexical-index.js";
import type { RouteQuery } from "./query.js";
import type { RouteModel, SkillTextTerms } from "./route-model.js";
import { largestValues } from "./top-k.js";
import type { TextSlot } from "./vector-cache.js";
import type { Signals } from "../contract/route.js";

// Raw BM25 is unbounded; x / (x + BM25_HALF) maps it into [0, 1) with 0.5 at a typical strong match.
const BM25_HALF = 10;
const TOP_K = 3;
// What a lone request from use is discounted by: below the skill's own texts until another confirmed request agrees.
const LONE_DISCOUNT = 0.05;
export const KNN_DEPTH = 10;
/** A request confirmed for a skill by use this similar to a new one is close to it: evidence the skill may serve it. */
const USE_CLOSE = 0.6;
/** ... this similar, it says the same thing in other words: evidence the skill serves it. */
const USE_SAME = 0.75;
/** ... or this similar and sharing a word with it: close; and the same when no request of the skill's own manifest holds
 * that word ("QBR"), which only use taught it. A word the skill's own requests hold is how a near miss resembles them. */
const USE_RELATED = 0.4;

/** Everything measured about one candidate skill for one query. */
export interface Evidence {
  skill: number;
  signals: Signals;
  /** Unsquashed BM25, for features relative to the other candidates. */
  bm25Raw: number;
  /** The skill's query similarities, best first (at most KNN_DEPTH), for the nearest-neighbour vote. */
  topQuerySims: number[];
  heuristicManifest: boolean;
  matched: KeywordMatch;
  /** The position among the skill's texts (RouteModel.textString) of its query nearest to this one. */
  nearestQuery: number | null;
  /** That query is a request confirmed from use, not one of the manifest's. */
  nearestFromUse: boolean;
  /** The position of the negative that fired, if one did. */
  negative: number | null;
  /** Requests confirmed for the skill by use (feedback) close to this one, and those that say the same: evidence no floor vetoes. */
  fromUse: UseEvidence;
}

const SIMILARITIES = ["q2q_max", "q2q_topk", "q2d", "q2c"] as const;

/**
 * Exact signals for each candidate: dense similarities over all of its texts, BM25, keyword hits, negatives. For a
 * query the embedder cannot read, the dense similarities are `typicalSimilarity` for every candidate (a wrong skill's
 * on this index), so they count neither for nor against any skill and the words decide. (A Chinese query's English
 * gloss finds candidates and joins BM25, but is not compared densely: its similarities run on another scale.)
 */
export function measureEvidence(model: RouteModel, lexical: LexicalIndex, query: RouteQuery, candidates: number[], typicalSimilarity: number): Evidence[] {
  const bm25Scores = lexical.bm25(query);
  const keywordHits = lexical.keywords(query);
  const vector = query.readable ? query.vector : undefined;
  // An unreadable query compares no vectors: they are not even read.
  const texts = vector ? model.texts(candidates) : undefined;
  const similarity = vector ? model.compareWith(vector) : () => 0;
  if (vector) model.centroids.setQuery(vector);
  const bm25Raw = bm25Scores.scoresOf(candidates);
  const matches = keywordHits.matchesOf(candidates);
  const evidence = candidates.map((index, position): Evidence => {
    const skill = model.skills[index]!;
    const own = texts?.[position];
    const similarities = (own?.queries ?? []).map(similarity);
    const querySims = discountLone(own?.queries ?? [], similarities);
    const fromUse = own ? useEvidence(own.queries, similarities, () => model.textTerms(index), query.terms) : NO_USE;
    let best = -1;
    for (let at = 0; at < querySims.length; at++) if (best < 0 || querySims[at]! > querySims[best]!) best = at;
    const nearest = largestValues(querySims, KNN_DEPTH);
    const top = nearest.slice(0, TOP_K);
    const q2qMax = top[0] ?? 0;
    const { penalty, position: negative } = negativePenalty(own?.negatives ?? [], similarity, q2qMax);
    const raw = bm25Raw[position]!;
    const matched = matches[position]!;
    return {
      skill: index,
      signals: {
        q2q_max: q2qMax,
        q2q_topk: top.length > 0 ? top.reduce((sum, value) => sum + value, 0) / top.length : 0,
        q2d: own?.description ? similarity(own.description) : 0,
        q2c: vector ? model.centroids.similarity(index + 1) : 0,
        bm25: raw / (raw + BM25_HALF),
        keyword_hits: matched.keywords.length,
        phrase_hits: matched.phrases.length,
        negative: penalty,
      },
      bm25Raw: raw,
      topQuerySims: nearest,
      heuristicManifest: skill.heuristicManifest,
      matched,
      nearestQuery: best >= 0 ? own!.queries[best]!.position : null,
      nearestFromUse: best >= 0 && own!.queries[best]!.use !== undefined,
      negative,
      fromUse,
    };
  });
  if (vector) return evidence;
  const standIn = Object.fromEntries(SIMILARITIES.map((signal) => [signal, typicalSimilarity]));
  return evidence.map((item) => ({ ...item, signals: { ...item.signals, ...standIn } }));
}

/** The query's similarity to each of a skill's queries, a request confirmed from use counting a little less until another agrees with it. */
export function querySimilarities(queries: TextSlot[], similarity: (text: TextSlot) => number): number[] {
  return discountLone(queries, queries.map(similarity));
}

function discountLone(queries: TextSlot[], similarities: number[]): number[] {
  return similarities.map((value, at) => value - (queries[at]!.use === "lone" ? LONE_DISCOUNT : 0));
}

/** How many of a skill's requests confirmed by use are close to a query, and how many of those say the same thing. */
export interface UseEvidence {
  close: number;
  same: number;
}

const NO_USE: UseEvidence = { close: 0, same: 0 };

/** A skill's requests from use measured against the query (see USE_CLOSE, USE_SAME, USE_RELATED), from its queries' similarities to it. */
function useEvidence(queries: TextSlot[], similarities: number[], skillTerms: () => SkillTextTerms, terms: string[]): UseEvidence {
  const found = { close: 0, same: 0 };
  let words: SkillTextTerms | undefined;
  queries.forEach((query, at) => {
    if (query.use === undefined) return;
    const value = similarities[at]!;
    if (value >= USE_CLOSE) found.close++;
    if (value >= USE_SAME) found.same++;
    if (value >= USE_CLOSE || value < USE_RELATED) return;
    // Their words are read only for a skill that has requests from use this near (route-model.ts keeps them once read).
    words ??= skillTerms();
    const shared = terms.filter((term) => words!.queryTermsAt.get(query.position)?.has(term));
    if (shared.length === 0) return;
    found.close++;
    if (shared.some((term) => !words!.manifestWords.has(term))) found.same++;
  });
  return found.close === 0 ? NO_USE : found;
}

/** How far the skill's negative nearest the query in meaning beats its best query (`q2qMax`), and its position; 0 and null when none does. */
export function negativePenalty(negatives: TextSlot[], similarity: (text: TextSlot) => number, q2qMax: number): { penalty: number; position: number | null } {
  let nearest: TextSlot | undefined;
  let nearestSim = -Infinity;
  for (const negative of negatives) {
    const value = similarity(negative);
    if (value > nearestSim) [nearestSim, nearest] = [value, negative];
  }
  return nearest && nearestSim > q2qMax ? { penalty: nearestSim - q2qMax, position: nearest.position } : { penalty: 0, position: null };
}

const ABSTAIN_DEPTH = 3;

/**
 * Mean similarity of the query to its closest known no-skill requests (0 when none are known). `skip` leaves
 * rows out: `router fit` must not let a training query find itself.
 */
export function abstainSimilarity(abstain: AbstainExamples, vector: Float32Array, skip?: (row: number) => boolean): number {
  const closest: number[] = [];
  for (let row = 0; row < abstain.texts.length; row++) {
    if (skip?.(row)) continue;
    const value = dotRow(vector, abstain.matrix, row, vector.length);
    if (closest.length === ABSTAIN_DEPTH && value <= closest[ABSTAIN_DEPTH - 1]!) continue;
    const at = closest.findIndex((kept) => value > kept);
    closest.splice(at === -1 ? closest.length : at, 0, value);
    closest.length = Math.min(closest.length, ABSTAIN_DEPTH);
  }
  return closest.length > 0 ? closest.reduce((sum, value) => sum + value, 0) / closest.length : 0;
}
