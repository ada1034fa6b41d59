import { statSync } from "node:fs";
import { createError } from "../errors.js";
import { createReranker } from "../models/create-reranker.js";
import type { Reranker } from "../models/embedder.js";
import { createQueryEncoder, type QueryEncoder } from "../models/query-encoder.js";
import { normalise } from "../models/vector-math.js";
import type { Skill } from "../skills/types.js";
import { asIndexError, openIndexForRead, type IndexDatabase } from "../store/database.js";
import { getSkill, listSkills, type SkillSummary } from "../store/skill-rows.js";
import { analyseText } from "../text/analyse-text.js";
import { embedderReads } from "./embedder-coverage.js";
import { requireKnownSkills } from "./known-skills.js";
import { MAX_QUERY_CHARS } from "./query-limit.js";
import { bm25Retriever } from "./bm25-retriever.js";
import { decide, rankedCandidate } from "./decision.js";
import { fusionFor } from "./fusion-params.js";
import { FEATURES, featureRows, type FusionParams } from "./fusion.js";
import { denseRetriever } from "./dense-retriever.js";
import { keywordMatcher, type KeywordMatch, type KeywordMatcher } from "./keyword-matcher.js";
import type { Retriever, RouteQuery } from "./retriever.js";
import { loadRouteModel, type RouteModel } from "./route-model.js";
import { denseStandIn, scoreCandidates, type ScoredCandidate, type Scoring } from "./score-candidates.js";
import { abstainSimilarity, measureEvidence, type Evidence } from "./signals.js";
import type { ContextMessage, RankedSkill, RouteOptions, RouteResult, RouteTiming } from "./types.js";

export interface RouterOptions {
  /** Path of the index file. */
  db: string;
  /** Embeds queries; by default one matching the index's embedder is made (in a worker thread). */
  queryEncoder?: QueryEncoder;
  /** Cross-encoder for the top few candidates; by default it is used when its files are present; null skips the stage. */
  reranker?: Reranker | null;
  /** Fusion parameters to use instead of the index's fitted (or the default) ones. */
  fusion?: FusionParams;
  /** Candidates each retriever contributes before exact scoring. */
  candidatesPerRetriever?: number;
  /** How many of the best candidates the reranker rescores. */
  rerankTop?: number;
}

/** The in-process router: `createRouter({ db })`, then `router.route(query, options)`. */
export interface Router {
  route(query: string, options?: RouteOptions): Promise<RouteResult>;
  /** Every scored candidate of a query with its feature row, best first: the training data of `router fit`. */
  candidates(query: string, options?: RouteOptions): Promise<ScoredCandidates>;
  skills(): SkillSummary[];
  skill(name: string): Skill | undefined;
  /**
   * Reloads the index when another process has written a new version; true when it did. Only a stat when the file
   * has not changed, so call it as often as you like; a version that fails to load is tried again once the file changes again.
   */
  refresh(): boolean;
  status(): RouterStatus;
  close(): Promise<void>;
}

export interface ScoredCandidates {
  names: string[];
  evidence: Evidence[];
  features: number[][];
  /** The query's unit vector (fit learns abstain examples from it). */
  vector: Float32Array;
  /** The embedder reads the query's script; when not, dense signals are 0 and fit must score it as routing does. */
  readable: boolean;
}

export interface RouterStatus {
  indexVersion: number;
  skills: number;
  vectors: number;
  embedder: string | null;
  reranker: string | null;
  fusion: string;
}

/** Everything derived from one index version, swapped as a whole so a request never sees two versions. */
interface RouteState {
  model: RouteModel;
  bm25: Retriever;
  dense: Retriever;
  keywords: KeywordMatcher;
  fusion: FusionParams;
  /** Held in one read transaction: bodies and listings come from the same version as the model, even after `router index` commits. */
  db: IndexDatabase;
  /** The meta table when loaded; any change (an index run, `router fit`) means a reload. */
  stamp: string;
  /** Requests using this state now; a replaced state's connection closes when the last one ends. */
  users: number;
  retired: boolean;
}

const DEFAULT_K = 3;
// Candidates per retriever: 20 keeps 99% of the right skills on the eval sets at half the exact-scoring work of 50.
const DEFAULT_CANDIDATES = 20;
const DEFAULT_RERANK_TOP = 5;
// Recent conversation shifts the query vector a little; the message itself stays dominant.
const CONTEXT_WEIGHT = 0.3;
const CONTEXT_MESSAGES = 3;

export async function createRouter(options: RouterOptions): Promise<Router> {
  // Taken before the first read, so a version committed while loading is still noticed.
  let seenFile = fileSignature(options.db);
  const snapshot = openSnapshot(options.db);
  let state: RouteState;
  let encoder: QueryEncoder;
  try {
    state = buildState(snapshot, options.fusion);
    encoder = options.queryEncoder ?? (await createQueryEncoder({ indexEmbedder: state.model.embedder }));
    checkEmbedder(state.model, encoder);
  } catch (error) {
    snapshot.db.close();
    throw asIndexError(error, options.db);
  }
  const { reranker, rerankerNote } = await loadReranker(options.reranker);
  const perRetriever = options.candidatesPerRetriever ?? DEFAULT_CANDIDATES;
  const rerankTop = options.rerankTop ?? DEFAULT_RERANK_TOP;

  return {
    async route(query, routeOptions = {}) {
      const current = state;
      return using(current, () => routeQuery(current, current.db, encoder, reranker, rerankerNote, { perRetriever, rerankTop }, query, routeOptions));
    },
    async candidates(query, routeOptions = {}) {
      const current = state;
      const { scoring, vector, readable } = await using(current, () => scoreQuery(current, encoder, reranker, { perRetriever, rerankTop }, query, routeOptions));
      return {
        names: scoring.ranked.map((item) => current.model.skills[item.evidence.skill]!.name),
        evidence: scoring.ranked.map((item) => item.evidence),
        features: scoring.ranked.map((item) => item.features),
        vector,
        readable,
      };
    },
    skills: () => listSkills(state.db),
    skill: (name) => getSkill(state.db, name),
    refresh() {
      const signature = fileSignature(options.db);
      if (signature === seenFile) return false;
      seenFile = signature;
      // Loading is synchronous, so no request runs between building the new state and swapping it in.
      const next = openSnapshot(options.db);
      try {
        if (next.stamp === state.stamp) {
          next.db.close();
          return false;
        }
        const loaded = buildState(next, options.fusion);
        checkEmbedder(loaded.model, encoder);
        const previous = state;
        state = loaded;
        retire(previous);
        return true;
      } catch (error) {
        next.db.close();
        throw asIndexError(error, options.db);
      }
    },
    status: () => ({
      indexVersion: state.model.indexVersion,
      skills: state.model.skills.length,
      vectors: state.model.texts.length,
      embedder: state.model.embedder,
      reranker: reranker?.id ?? null,
      fusion: state.fusion.origin,
    }),
    async close() {
      if (!options.queryEncoder) await encoder.close();
      if (reranker && options.reranker === undefined) await reranker.close();
      retire(state);
    },
  };
}

/** The reranker to use, or why there is none (shown in every response's warnings). */
async function loadReranker(given: Reranker | null | undefined): Promise<{ reranker: Reranker | null; rerankerNote: string }> {
  if (given !== undefined) return { reranker: given, rerankerNote: "reranker unavailable: turned off" };
  const load = await createReranker();
  return load.status === "ready" ? { reranker: load.reranker, rerankerNote: "" } : { reranker: null, rerankerNote: `reranker unavailable: ${load.reason}` };
}

/** A read connection inside one transaction, pinned to the index version committed when it first read. */
function openSnapshot(file: string): { db: IndexDatabase; stamp: string } {
  const db = openIndexForRead(file);
  try {
    db.exec("BEGIN");
    return { db, stamp: JSON.stringify(db.prepare("SELECT key, value FROM meta ORDER BY key").all()) };
  } catch (error) {
    db.close();
    throw asIndexError(error, file);
  }
}

/** The index file and its WAL as stat sees them: a commit by `router index` or `router fit` always changes the WAL's size or time. */
function fileSignature(file: string): string {
  return [file, `${file}-wal`]
    .map((part) => {
      const stat = statSync(part, { throwIfNoEntry: false });
      return stat ? `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}` : "-";
    })
    .join("|");
}

function buildState({ db, stamp }: { db: IndexDatabase; stamp: string }, fusion: FusionParams | undefined): RouteState {
  const model = loadRouteModel(db);
  return { model, bm25: bm25Retriever(model), dense: denseRetriever(model), keywords: keywordMatcher(model), fusion: fusion ?? fusionFor(db, model.embedder), db, stamp, users: 0, retired: false };
}

async function using<T>(state: RouteState, work: () => Promise<T>): Promise<T> {
  state.users++;
  try {
    return await work();
  } finally {
    state.users--;
    if (state.retired && state.users === 0) state.db.close();
  }
}

function retire(state: RouteState): void {
  state.retired = true;
  if (state.users === 0) state.db.close();
}

function checkEmbedder(model: RouteModel, encoder: QueryEncoder): void {
  if (model.embedder !== null && model.embedder !== encoder.id) {
    throw createError("EMBEDDER_MISMATCH", `The index was embedded with ${model.embedder} but queries would be embedded with ${encoder.id}: run \`router index\` again`, {
      index: model.embedder,
      query: encoder.id,
    });
  }
}

interface Limits {
  perRetriever: number;
  rerankTop: number;
}

async function routeQuery(
  state: RouteState,
  db: IndexDatabase,
  encoder: QueryEncoder,
  reranker: Reranker | null,
  rerankerNote: string,
  limits: Limits,
  text: string,
  options: RouteOptions,
): Promise<RouteResult> {
  const { model, fusion } = state;
  const k = options.k ?? DEFAULT_K;
  const base = { min_margin: fusion.minMargin, index_version: model.indexVersion, embedder: model.embedder, reranker: reranker?.id ?? null };
  if (model.skills.length === 0) {
    const warnings = ["the index has no skills: run `router index <path>`"];
    const timing_ms = { embed: 0, retrieve: 0, score: 0, rerank: 0, total: 0 };
    return { decision: "none", selected: [], skills: [], reason: "empty_index", in_scope: 0, threshold: options.threshold ?? fusion.threshold, warnings, timing_ms, ...base };
  }
  const { scoring, timing, readable } = await scoreQuery(state, encoder, reranker, limits, text, options);
  const outcome = decide(
    scoring.ranked.map((item) => rankedCandidate(model.skills[item.evidence.skill]!.name, item.confidence, item.evidence)),
    scoring.inScope,
    fusion,
    {
      k,
      restricted: options.skills !== undefined,
      otherScript: !readable,
      ...(options.threshold !== undefined ? { threshold: options.threshold } : {}),
      ...(options.multi !== undefined ? { multi: options.multi } : {}),
    },
  );
  const includeBody = options.include?.includes("body") ?? false;
  return {
    decision: outcome.decision,
    selected: outcome.selected,
    skills: scoring.ranked.slice(0, k).map((item) => explain(model, db, item, includeBody)),
    reason: outcome.reason,
    in_scope: round(scoring.inScope),
    threshold: outcome.threshold,
    warnings: reranker ? [] : [rerankerNote],
    timing_ms: { embed: timing.embed, retrieve: timing.retrieve, score: timing.score, rerank: timing.rerank, total: round(performance.now() - timing.started) },
    ...base,
  };
}

/** Embed, retrieve, measure and score every candidate (the reranker rescores the best few). */
async function scoreQuery(
  state: RouteState,
  encoder: QueryEncoder,
  reranker: Reranker | null,
  limits: Limits,
  text: string,
  options: RouteOptions,
): Promise<{ scoring: Scoring; vector: Float32Array; readable: boolean; timing: Omit<RouteTiming, "total"> & { started: number } }> {
  checkQuery(text);
  options.signal?.throwIfAborted();
  const started = performance.now();
  const { model, fusion } = state;
  const allowed = allowList(model, options);
  const query = await embedQuery(encoder, text, options.context);
  options.signal?.throwIfAborted();
  const embedded = performance.now();

  // Every match's BM25 score, not only the top ones: dense and keyword candidates need theirs as evidence too.
  const bm25Scores = new Map(state.bm25.retrieve(query, model.skills.length, allowed).map((hit) => [hit.skill, hit.score]));
  const keywordMatches = state.keywords.match(query.terms);
  const candidates = new Set<number>();
  const readable = embedderReads(text);
  if (readable) for (const hit of state.dense.retrieve(query, limits.perRetriever, allowed)) candidates.add(hit.skill);
  let taken = 0;
  for (const skill of bm25Scores.keys()) {
    if (taken++ >= limits.perRetriever) break;
    candidates.add(skill);
  }
  // Common words hit many skills' keywords: only the skills with the most hits join the candidates.
  const byHits = [...keywordMatches].filter(([skill]) => !allowed || allowed(skill)).sort(([a, x], [b, y]) => hitCount(y) - hitCount(x) || a - b);
  for (const [skill] of byHits.slice(0, limits.perRetriever)) candidates.add(skill);
  const retrieved = performance.now();

  const evidence = measureEvidence(model, readable ? query.vector : undefined, [...candidates], bm25Scores, keywordMatches);
  const rows = featureRows(evidence);
  const abstainSim = readable ? abstainSimilarity(model.abstain, query.vector) : 0;
  const standIn = denseStandIn(fusion, readable);
  let scoring = scoreCandidates(fusion, evidence, rows, abstainSim, standIn);
  const scored = performance.now();
  if (reranker && scoring.ranked.length > 0) {
    options.signal?.throwIfAborted();
    await rerank(reranker, model, text, scoring.ranked.slice(0, limits.rerankTop));
    options.signal?.throwIfAborted();
    scoring = scoreCandidates(fusion, evidence, rows, abstainSim, standIn);
  }
  const reranked = performance.now();
  return {
    scoring,
    vector: query.vector,
    readable,
    timing: { started, embed: round(embedded - started), retrieve: round(retrieved - embedded), score: round(scored - retrieved), rerank: round(reranked - scored) },
  };
}

/** The library and CLI get the same query rules (and error codes) as the HTTP API. */
function checkQuery(text: unknown): void {
  if (typeof text !== "string") throw createError("QUERY_NOT_STRING", "The query is missing or not a string");
  if (text.trim() === "") throw createError("QUERY_EMPTY", "The query is empty or only whitespace");
  if (text.length > MAX_QUERY_CHARS) throw createError("QUERY_TOO_LONG", `The query is longer than ${MAX_QUERY_CHARS} characters`);
}

function allowList(model: RouteModel, options: RouteOptions): ((skill: number) => boolean) | undefined {
  if (!options.skills && !options.exclude) return undefined;
  requireKnownSkills([...(options.skills ?? []), ...(options.exclude ?? [])], (name) => model.byName.has(name));
  const only = options.skills ? new Set(options.skills.map((name) => model.byName.get(name)!)) : undefined;
  const excluded = new Set((options.exclude ?? []).map((name) => model.byName.get(name)!));
  return (skill) => (!only || only.has(skill)) && !excluded.has(skill);
}

async function embedQuery(encoder: QueryEncoder, text: string, context: ContextMessage[] | undefined): Promise<RouteQuery> {
  const vector = Float32Array.from(await encoder.embedQuery(text));
  const recent = (context ?? []).slice(-CONTEXT_MESSAGES).map((message) => (typeof message === "string" ? message : message.content)).filter((message) => message.trim() !== "");
  if (recent.length > 0) {
    const contextVector = await encoder.embedQuery(recent.join("\n"));
    for (let i = 0; i < vector.length; i++) vector[i]! += CONTEXT_WEIGHT * contextVector[i]!;
    normalise(vector);
  }
  return { text, terms: analyseText(text), vector };
}

function hitCount(match: KeywordMatch): number {
  return match.keywords.length + 2 * match.phrases.length;
}

const RERANK_FEATURE = FEATURES.indexOf("rerank");

/** The cross-encoder reads the query with each of the best few skills; its score becomes one more feature. */
async function rerank(reranker: Reranker, model: RouteModel, text: string, head: ScoredCandidate[]): Promise<void> {
  const passages = head.map((item) => {
    const skill = model.skills[item.evidence.skill]!;
    return `${skill.name}: ${skill.description}`;
  });
  const scores = await reranker.score(text, passages);
  head.forEach((item, index) => {
    item.evidence.signals.rerank = scores[index]!;
    item.features[RERANK_FEATURE] = scores[index]!;
  });
}

function explain(model: RouteModel, db: IndexDatabase, item: ScoredCandidate, includeBody: boolean): RankedSkill {
  const skill = model.skills[item.evidence.skill]!;
  const ranked: RankedSkill = {
    name: skill.name,
    kind: skill.kind,
    description: skill.description,
    confidence: round(item.confidence),
    share: round(item.share),
    tokens: skill.tokens,
    signals: Object.fromEntries(Object.entries(item.evidence.signals).map(([key, value]) => [key, round(value)])) as unknown as RankedSkill["signals"],
    matched: item.evidence.matched,
    nearest_query: item.evidence.nearestQuery,
    negative: item.evidence.negative,
  };
  if (includeBody) ranked.body = getSkill(db, skill.name)?.injection ?? "";
  return ranked;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
