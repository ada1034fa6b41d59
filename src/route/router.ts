import { createError } from "../errors.js";
import { createReranker } from "../models/create-reranker.js";
import type { Reranker, RerankerLoad } from "../models/embedder.js";
import type { ModelSettings } from "../models/model-settings.js";
import { createQueryEncoder, type QueryEncoder } from "../models/query-encoder.js";
import { asIndexError } from "../store/database.js";
import { toSkillDetail, toSkillSummary } from "../contract/skill-wire.js";
import type { SkillDetail, SkillSummary } from "../contract/skills.js";
import { getSkill, listSkills } from "../store/skill-rows.js";
import { bm25Retriever } from "./bm25-retriever.js";
import { calledSkill } from "./called-skill.js";
import { gatherCandidates } from "./candidates.js";
import { decide, rankedCandidate, type DecisionOutcome } from "./decide.js";
import { answer, DEFAULT_OFFER, type AnswerOutcome } from "./answer.js";
import { explainOffer, offerLineTokens } from "./explain-offer.js";
import { denseRetriever } from "./dense-retriever.js";
import { explainCandidate, round } from "./explain.js";
import { judgeFeedback } from "./feedback-judgement.js";
import { nearestNames } from "./nearest-names.js";
import { recentAnswers } from "./recent-answers.js";
import type { RoutingParams } from "./routing-params.js";
import { keywordRetriever } from "./keyword-retriever.js";
import { namedNearMiss } from "./near-miss.js";
import { requireKnownSkills } from "./known-skills.js";
import { checkRequest, prepareQuery, type RouteQuery } from "./query.js";
import { resultCache } from "./result-cache.js";
import type { RetrieverFactory } from "./retriever.js";
import type { RouteModel } from "./route-model.js";
import { rankingLogit, scopeModelProbability } from "./routing-params.js";
import { scoreQuery, type ScoredCandidate, type Scoring } from "./score.js";
import type { Evidence } from "./signals.js";
import { holdSnapshot, type Snapshot } from "./snapshot.js";
import { breakTies } from "./tie-break.js";
import { DEFAULT_K } from "../contract/limits.js";
import type { RouteOptions, RouteResult } from "../contract/route.js";
import type { FeedbackRequest } from "../contract/feedback.js";
import { routableQuery } from "../contract/limits.js";
import type { NewFeedback } from "../store/feedback-rows.js";

export interface RouterOptions {
  /** Path of the index file. */
  db: string;
  /** Embeds queries; by default one matching the index's embedder is made (in a worker thread). */
  queryEncoder?: QueryEncoder;
  /** Fusion parameters to use instead of the index's fitted (or the default) ones. */
  params?: RoutingParams;
  /** How candidates are found, in this order (default: dense, BM25, keywords); every candidate is then measured alike. */
  retrievers?: RetrieverFactory[];
  /** Candidates each retriever contributes before exact scoring. */
  candidatesPerRetriever?: number;
  /**
   * The cross-encoder breaks ties between candidates close to the best (src/route/tie-break.ts). Off by default: its
   * effect is unmeasured. `true` loads it in a worker when its files are present; or pass a reranker.
   */
  tieBreak?: boolean | Reranker;
  /** Where the model files are and which embedder and reranker to load (default: auto, this installation's models/). */
  models?: Partial<ModelSettings>;
  /** Where the indexed roots are served from, by position, when they moved (store/skill-location.ts); default: where they were indexed. */
  skillsRoot?: string[];
}

/** The in-process router: `createRouter({ db })`, then `router.route(query, options)`. */
export interface Router {
  route(query: string, options?: RouteOptions): Promise<RouteResult>;
  /**
   * What a piece of feedback on an answer would teach this index (which skill it corrects, whether its skill takes it
   * as an example) with the request's vector: a row for `saveFeedback`, all but who said it. The index is not written.
   */
  feedback(request: FeedbackRequest): Promise<Omit<NewFeedback, "client">>;
  /** Every scored candidate of a query with its feature row, best first: the training data of `router fit`. */
  candidates(query: string, options?: RouteOptions): Promise<ScoredCandidates>;
  skills(): SkillSummary[];
  /** One skill with `body` exactly what would be injected, as `GET /skills/{name}` answers it. */
  skill(name: string): SkillDetail | undefined;
  /**
   * Reloads the index when another process has written a new version; true when it did. Only a stat when the file
   * has not changed, so call it as often as you like; a version that fails to load is tried again once the file changes again.
   * The load yields to the event loop as it goes: routes meanwhile answer from the version loaded before.
   */
  refresh(): Promise<boolean>;
  status(): RouterStatus;
  close(): Promise<void>;
}

export interface ScoredCandidates {
  names: string[];
  evidence: Evidence[];
  features: number[][];
  /** The first `choices` candidates may be chosen; the rest are the context an allow-list was scored against. */
  choices: number;
  /** The query's unit vector (fit learns abstain examples from it). */
  vector: Float32Array;
  /** The embedder reads the query's script; when not, dense signals are 0 and fit must score it as routing does. */
  readable: boolean;
  /** Per candidate: the whole index's retrievers find it too (always, without an allow-list); the decision refuses one they do not. */
  retrieved: boolean[];
  /** Per candidate: one of its manifest's negatives holds more of the query's words than any of its queries; the decision refuses such a best candidate. */
  nearMiss: boolean[];
}

export interface RouterStatus {
  indexVersion: number;
  skills: number;
  vectors: number;
  embedder: string | null;
  /** The cross-encoder breaking ties, or null when the stage is off. */
  reranker: string | null;
  /** Why the tie-break stage asked for is not running (its files are missing, say); null when it runs or was not asked for. */
  rerankerUnavailable: string | null;
  fusion: string;
}

// Candidates per retriever: 20 keeps 99% of the right skills on the eval sets at half the exact-scoring work of 50.
export const DEFAULT_CANDIDATES = 20;
export const DEFAULT_RETRIEVERS: RetrieverFactory[] = [denseRetriever, bm25Retriever, keywordRetriever];

export async function createRouter(options: RouterOptions): Promise<Router> {
  const holder = await holdSnapshot(options.db, { retrievers: options.retrievers ?? DEFAULT_RETRIEVERS, ...(options.params ? { params: options.params } : {}) });
  let encoder: QueryEncoder;
  try {
    encoder = options.queryEncoder ?? (await createQueryEncoder({ ...options.models, indexEmbedder: holder.current().model.embedder }));
    checkEmbedder(holder.current().model, encoder);
  } catch (error) {
    holder.close();
    throw asIndexError(error, options.db);
  }
  const tieBreak = await tieBreakStage(options.tieBreak, options.models);
  const perRetriever = options.candidatesPerRetriever ?? DEFAULT_CANDIDATES;
  const answers = resultCache();
  const recent = recentAnswers();

  return {
    route: (query, routeOptions = {}) =>
      holder.use(async (snapshot) => {
        const started = performance.now();
        const hit = answers.get(snapshot, query, routeOptions);
        if (hit) return recent.remember(query, { ...hit, timing_ms: { embed: 0, retrieve: 0, score: 0, rerank: 0, total: round(performance.now() - started), cached: true } });
        const result = await routeQuery(snapshot, encoder, tieBreak.reranker, perRetriever, query, routeOptions, options.skillsRoot);
        answers.set(snapshot, query, routeOptions, result);
        return recent.remember(query, result);
      }),
    feedback: (request) =>
      holder.use(async (snapshot) => {
        const { model } = snapshot;
        if (request.skill !== null && !model.byName.has(request.skill)) throw unknownSkill(request.skill, model);
        const text = routableQuery(request.query);
        const query = await prepareQuery(encoder, text, undefined);
        // What the answer injected: the one named by route_id, else what this index version injects now.
        const answered = request.route_id === undefined ? undefined : recent.answer(request.route_id);
        const injected = answered ? (answered.selected[0] ?? null) : injectedNow(snapshot, query, perRetriever);
        return {
          query: request.query,
          skill: request.skill,
          routeId: request.route_id ?? null,
          ...judgeFeedback(snapshot, query, request.skill, injected),
          embedder: model.embedder,
          vector: query.vector,
        };
      }),
    async candidates(query, routeOptions = {}) {
      return holder.use(async (snapshot) => {
        checkRequest(query, routeOptions);
        return scoredCandidates(snapshot, await prepareQuery(encoder, query, routeOptions.context), perRetriever, routeOptions);
      });
    },
    skills: () => listSkills(holder.current().db, options.skillsRoot).map(toSkillSummary),
    skill: (name) => {
      const skill = getSkill(holder.current().db, name, options.skillsRoot);
      return skill && toSkillDetail(skill);
    },
    refresh: () => holder.refresh((next) => checkEmbedder(next.model, encoder)),
    status: () => {
      const { model, params } = holder.current();
      return {
        indexVersion: model.indexVersion,
        skills: model.skills.length,
        vectors: model.textCount,
        embedder: model.embedder,
        reranker: tieBreak.reranker?.id ?? null,
        rerankerUnavailable: tieBreak.unavailable,
        fusion: params.origin,
      };
    },
    async close() {
      if (!options.queryEncoder) await encoder.close();
      if (tieBreak.reranker && options.tieBreak === true) await tieBreak.reranker.close();
      holder.close();
    },
  };
}

/** The tie-break stage's reranker: none unless asked for, so neither a worker nor a model is loaded for nothing. */
async function tieBreakStage(given: RouterOptions["tieBreak"], models: RouterOptions["models"]): Promise<{ reranker: Reranker | null; unavailable: string | null }> {
  if (!given) return { reranker: null, unavailable: null };
  if (given !== true) return { reranker: given, unavailable: null };
  const load: RerankerLoad = await createReranker(models);
  return load.status === "ready" ? { reranker: load.reranker, unavailable: null } : { reranker: null, unavailable: load.reason };
}

function checkEmbedder(model: RouteModel, encoder: QueryEncoder): void {
  if (model.embedder !== null && model.embedder !== encoder.id) {
    throw createError("EMBEDDER_MISMATCH", `The index was embedded with ${model.embedder} but queries would be embedded with ${encoder.id}: run \`router index\` again`, {
      index: model.embedder,
      query: encoder.id,
    });
  }
}

/** The pipeline: prepare the query, gather candidates, score them, break ties, decide, explain. */
async function routeQuery(
  snapshot: Snapshot,
  encoder: QueryEncoder,
  reranker: Reranker | null,
  perRetriever: number,
  text: string,
  options: RouteOptions,
  skillsRoot: string[] | undefined,
): Promise<Omit<RouteResult, "route_id">> {
  const { model, params } = snapshot;
  const k = options.k ?? DEFAULT_K;
  const base = { min_margin: params.minMargin, index_version: model.indexVersion, embedder: model.embedder, reranker: reranker?.id ?? null };
  checkRequest(text, options);
  if (model.skills.length === 0) {
    const warnings = ["the index has no skills: run `router index <path>`"];
    const timing_ms = { embed: 0, retrieve: 0, score: 0, rerank: 0, total: 0, cached: false };
    return {
      decision: "none",
      selected: [],
      offer: null,
      skills: [],
      reason: "empty_index",
      in_scope: 0,
      threshold: options.threshold ?? params.threshold,
      evidence_floor: null,
      invoked: null,
      warnings,
      timing_ms,
      ...base,
    };
  }
  options.signal?.throwIfAborted();
  const started = performance.now();
  const query = await prepareQuery(encoder, text, options.context, options.signal);
  options.signal?.throwIfAborted();
  const embedded = performance.now();
  const scored = scoreRoute(snapshot, query, perRetriever, options);
  const scoredAt = performance.now();
  if (reranker) {
    options.signal?.throwIfAborted();
    scored.scoring.ranked = await breakTies(reranker, model, text, scored.scoring.ranked);
    options.signal?.throwIfAborted();
  }
  const reranked = performance.now();
  const outcome = answerRoute(snapshot, query, scored, options);
  const { scoring, invoked } = scored;
  // The body is read from the store, which names the folder where the index is served.
  const bodyOf = options.include?.includes("body") ? (name: string) => getSkill(snapshot.db, name, skillsRoot)?.injection ?? "" : undefined;
  return {
    decision: outcome.decision,
    selected: outcome.selected,
    offer: outcome.decision === "offer" ? { ...explainOffer(snapshot, scoring.ranked, outcome.offered), holds_right_skill: params.offer?.holdsRight ?? null } : null,
    skills: scoring.ranked.slice(0, k).map((item) => explainCandidate(snapshot, item, bodyOf)),
    reason: outcome.reason,
    in_scope: round(scoring.inScope),
    threshold: outcome.threshold,
    evidence_floor: outcome.evidenceFloor && { bm25: round(outcome.evidenceFloor.bm25), q2q_max: round(outcome.evidenceFloor.q2qMax) },
    invoked: invoked !== undefined ? model.skills[invoked]!.name : null,
    warnings: passedOver(snapshot, scoring),
    timing_ms: {
      embed: round(embedded - started),
      retrieve: round(scored.retrieveMs),
      score: round(scoredAt - embedded - scored.retrieveMs),
      rerank: round(reranked - scoredAt),
      total: round(performance.now() - started),
      cached: false,
    },
    ...base,
  };
}

/** A prepared query's candidates, scored: what the decision reads (after the tie-break, when one runs). */
export interface ScoredRoute {
  scoring: Scoring;
  /** The skill the message calls by name, if any. */
  invoked: number | undefined;
  retrievedWhole: (skill: number) => boolean;
  /** Time spent gathering candidates, for the answer's timing. */
  retrieveMs: number;
}

/** Gathers and scores a prepared query's candidates. */
export function scoreRoute(snapshot: Snapshot, query: RouteQuery, perRetriever: number, options: RouteOptions): ScoredRoute {
  const started = performance.now();
  const { candidates, eligible, invoked, retrievedWhole } = candidatesOf(snapshot, query, perRetriever, options);
  const retrieveMs = performance.now() - started;
  return { scoring: scoreQuery(snapshot, query, candidates, eligible), invoked, retrievedWhole, retrieveMs };
}

/** Inject or none for a scored query, by the snapshot's parameters and the request's options. */
export function decideRoute(snapshot: Snapshot, query: RouteQuery, scored: ScoredRoute, options: RouteOptions): DecisionOutcome {
  const { model, params } = snapshot;
  const { scoring, invoked, retrievedWhole } = scored;
  if (invoked !== undefined) scoring.ranked = calledFirst(scoring.ranked, invoked);
  // Only the best candidate's near miss can decide: the others' words are not compared.
  const [best] = scoring.ranked;
  if (best && invoked === undefined) best.nearMiss = namedNearMiss(model, best.evidence, query.terms);
  return decide(
    scoring.ranked.map((item) => rankedCandidate(model.skills[item.evidence.skill]!.name, item.confidence, item.evidence, retrievedWhole(item.evidence.skill), (item.nearMiss ?? null) !== null)),
    scoring.inScope,
    params,
    {
      k: options.k ?? DEFAULT_K,
      restricted: options.skills !== undefined,
      otherScript: query.otherScript,
      invoked: invoked !== undefined,
      ...(options.threshold !== undefined ? { threshold: options.threshold } : {}),
      ...(options.multi !== undefined ? { multi: options.multi } : {}),
    },
  );
}

/** Inject, offer or none for a scored query: the inject-or-none rule's verdict, then what the index measured of its offers (answer.ts). */
export function answerRoute(snapshot: Snapshot, query: RouteQuery, scored: ScoredRoute, options: RouteOptions): AnswerOutcome {
  const decided = decideRoute(snapshot, query, scored, options);
  const { model, params } = snapshot;
  const offer = params.offer ?? DEFAULT_OFFER;
  const { scoring } = scored;
  const wanted = offer.gate && scoring.scopeFeatures.length > 0 ? scopeModelProbability(offer.gate, scoring.scopeFeatures) : undefined;
  const candidates = scoring.ranked.map((item) => {
    const skill = item.evidence.skill;
    return {
      ...rankedCandidate(model.skills[skill]!.name, item.confidence, item.evidence, scored.retrievedWhole(skill), (item.nearMiss ?? null) !== null),
      share: item.share,
      fromUse: item.evidence.fromUse,
      risky: model.risks.has(skill),
      offerTokens: () => offerLineTokens(model, skill),
    };
  });
  return answer(candidates, decided, wanted, offer, { injectOrNone: options.offer === false || options.multi === true, invoked: scored.invoked !== undefined });
}

/** Every scored candidate of a prepared query with its feature row, best first (the eligible ones before the context). */
export function scoredCandidates(snapshot: Snapshot, query: RouteQuery, perRetriever: number, options: RouteOptions): ScoredCandidates {
  const { candidates, eligible, retrievedWhole } = candidatesOf(snapshot, query, perRetriever, options);
  const scoring = scoreQuery(snapshot, query, candidates, eligible);
  const scored = [...scoring.ranked, ...scoring.context];
  return {
    names: scored.map((item) => snapshot.model.skills[item.evidence.skill]!.name),
    evidence: scored.map((item) => item.evidence),
    features: scored.map((item) => item.features),
    choices: scoring.ranked.length,
    vector: query.vector,
    readable: query.readable,
    retrieved: scored.map((item) => retrievedWhole(item.evidence.skill)),
    nearMiss: scored.map((item) => namedNearMiss(snapshot.model, item.evidence, query.terms) !== null),
  };
}

/**
 * What to score: the retrievers' candidates and the skill the message calls by name, and with an allow-list, the
 * allowed ones among the whole index's best as context (only the allowed are `eligible`), so that a few allowed
 * skills are measured against what else fits. `retrievedWhole` says whether the retrievers find a skill without the
 * allow-list (every skill, when there is none).
 */
function candidatesOf(
  snapshot: Snapshot,
  query: RouteQuery,
  perRetriever: number,
  options: RouteOptions,
): { candidates: number[]; eligible?: (skill: number) => boolean; invoked?: number; retrievedWhole: (skill: number) => boolean } {
  const { model } = snapshot;
  const { allowed, notExcluded } = skillFilters(model, options);
  // Names match exactly: "$HOME" in a pasted script calls no skill "home".
  const invoked = calledSkill(model, query, allowed);
  const found = gatherCandidates(snapshot.retrievers, query, perRetriever, allowed);
  const candidates = invoked === undefined || found.includes(invoked) ? found : [...found, invoked];
  const called = invoked === undefined ? {} : { invoked };
  // A skill used only when called by name stays among the candidates, as context the others are measured against.
  const uncalled = (skill: number) => !model.skills[skill]!.explicitOnly || skill === invoked;
  if (!options.skills) {
    const eligible = candidates.every(uncalled) ? {} : { eligible: uncalled };
    return { candidates, ...eligible, ...called, retrievedWhole: () => true };
  }
  const context = gatherCandidates(snapshot.retrievers, query, perRetriever, notExcluded);
  const wholeIndex = new Set(context);
  return {
    candidates: [...new Set([...candidates, ...context])],
    eligible: (skill) => allowed!(skill) && uncalled(skill),
    ...called,
    retrievedWhole: (skill) => wholeIndex.has(skill),
  };
}

/** What this index version injects for a prepared query, with no options: the skill, or null (an offer injects nothing). */
function injectedNow(snapshot: Snapshot, query: RouteQuery, perRetriever: number): string | null {
  return answerRoute(snapshot, query, scoreRoute(snapshot, query, perRetriever, {}), {}).selected[0] ?? null;
}

/** SKILL_NOT_FOUND for feedback naming a skill the index does not hold, with the nearest names it does. */
function unknownSkill(name: string, model: RouteModel): Error {
  const nearest = nearestNames(name, [...model.byName.keys()]);
  return createError("SKILL_NOT_FOUND", `No skill "${name}" in the index${nearest.length > 0 ? `; did you mean ${nearest.map((known) => `"${known}"`).join(", ")}?` : ""}`, {
    name,
    suggestions: nearest,
  });
}

/** A warning for a skill used only when called by name that the message fits better than the best one left: how to call it. */
function passedOver({ model, params }: Snapshot, scoring: Scoring): string[] {
  const best = scoring.ranked[0]?.logit ?? -Infinity;
  const fitter = scoring.context.find((item) => model.skills[item.evidence.skill]!.explicitOnly && rankingLogit(params, item.features) > best);
  if (!fitter) return [];
  const { name } = model.skills[fitter.evidence.skill]!;
  return [`${name} fits this request best, but it is used only when called by name ($${name} or /${name})`];
}

/** The skill the message called by name ranks first, whatever its scores; the rest keep their order. */
function calledFirst(ranked: ScoredCandidate[], invoked: number): ScoredCandidate[] {
  const called = ranked.find((item) => item.evidence.skill === invoked);
  return called ? [called, ...ranked.filter((item) => item !== called)] : ranked;
}

/** The request's `skills` and `exclude` as filters (undefined: every skill passes), their names checked once. */
function skillFilters(model: RouteModel, options: RouteOptions): { allowed?: (skill: number) => boolean; notExcluded?: (skill: number) => boolean } {
  if (!options.skills && !options.exclude) return {};
  requireKnownSkills([...(options.skills ?? []), ...(options.exclude ?? [])], (name) => model.byName.has(name));
  const only = options.skills ? new Set(options.skills.map((name) => model.byName.get(name)!)) : undefined;
  const excluded = new Set((options.exclude ?? []).map((name) => model.byName.get(name)!));
  const notExcluded = (skill: number) => !excluded.has(skill);
  return { allowed: only ? (skill) => only.has(skill) && notExcluded(skill) : notExcluded, notExcluded };
}
