import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { ShareScaleMeasure } from "../src/calibrate/measure-share-scale.js";
import { readResponseLines } from "../src/expand/response-lines.js";
import { computeMetrics } from "../src/eval/metrics.js";
import { rocAuc } from "../src/fit/roc-auc.js";
import { scoredAnswer, type ScoredOutcome } from "../src/eval/run-cases.js";
import { loadSettings } from "../src/config/load-settings.js";
import { modelOptions } from "../src/config/model-options.js";
import { runIndex } from "../src/indexer/run-index.js";
import { planEmbedder } from "../src/models/create-embedder.js";
import { openIndexForRead } from "../src/store/database.js";
import { readManifests } from "../src/store/manifest-rows.js";
import { createRouter, type Router } from "../src/route/router.js";
import { routableQuery } from "../src/contract/limits.js";
import { countEveryday, countReach, emptyReach, handedBy, offeringTop, readJudgments, type AgentJudgment, type EverydayCounts, type Handed, type ReachCounts } from "./agent-reach.js";

// Every skill collection of the shared corpus but openclaw, whose 2,215 skills are mostly short community uploads.
const CURATED_COLLECTIONS = [
  "K-Dense-AI__claude-scientific-skills",
  "alirezarezvani__claude-skills",
  "anthropics__skills",
  "obra__superpowers",
  "openai__skills",
  "sickn33__antigravity-awesome-skills",
  "wshobson__agents",
];
const OPENCLAW = "openclaw__skills";
// Every 20th openclaw skill (by folder name) lifts the curated collections' 952 skills past 1,000.
const OPENCLAW_STRIDE = 20;

export interface DistractorSet {
  /** Names the set in tables and its cached index. */
  label: string;
  paths: string[];
  /** The manifest tracks measured on it: the LLM's file covers the curated index only. */
  tracks: ManifestTrack[];
}

/** The two distractor sets the benchmark uses: just over 1,000 skills, and every skill of the corpus. */
export function distractorSets(corpusSkills: string): DistractorSet[] {
  const curated = CURATED_COLLECTIONS.map((folder) => path.join(corpusSkills, folder));
  const openclaw = path.join(corpusSkills, OPENCLAW);
  const sampled = readdirSync(openclaw)
    .sort()
    .filter((_, index) => index % OPENCLAW_STRIDE === 0)
    .map((folder) => path.join(openclaw, folder));
  return [
    { label: "curated", paths: [...curated, ...sampled], tracks: MANIFEST_TRACKS },
    { label: "whole-corpus", paths: [...curated, openclaw], tracks: ["heuristic"] },
  ];
}

export interface TriggerDevOptions {
  /** A folder laid out like ../shared/eval/trigger-dev: skills/ and cases.json. */
  evalDir: string;
  /** Distractor skills indexed with them. */
  distractors: DistractorSet;
  cacheDir: string;
  /** Where manifests come from: the heuristic expander, or the LLM-written manifests of `llm-manifests.jsonl` (imported as `router expand --import` does). */
  track: ManifestTrack;
  /** Build the index from scratch instead of updating the cached one. */
  fresh: boolean;
  /** Labelled sets whose no-skill requests are routed too, as everyday requests that need no skill (MetaTool's, CLINC150's out-of-scope). */
  everydaySets: string[];
  log: (message: string) => void;
}

export interface Case {
  query: string;
  expected: string | null;
  source: string;
}

export type Script = "latin" | "han" | "hangul";

/** The two ways a user gets manifests: no LLM (heuristic), or a strong LLM's (the shared file it wrote for this index). */
export type ManifestTrack = "heuristic" | "llm";
export const MANIFEST_TRACKS: ManifestTrack[] = ["heuristic", "llm"];
/** The LLM track's manifests, in the eval folder: one `{"name", "manifest"}` line per skill of the curated index. */
const LLM_MANIFESTS = "llm-manifests.jsonl";

export interface TriggerCounts {
  positives: number;
  negatives: number;
  /** Positives whose best-ranked skill is the expected one. */
  top1: number;
  /** Positives where exactly the expected skill was injected. */
  injectedRight: number;
  /** Near misses that injected the very skill they must not trigger. */
  negativesOwnSkill: number;
  /** Near misses that injected any skill. */
  negativesAnySkill: number;
}

export interface TriggerDevFigures {
  distractorSet: string;
  /** The cached index the figures were measured on. */
  db: string;
  track: ManifestTrack;
  /** Skills whose manifest came from the track's import (0 on the heuristic track). */
  imported: number;
  skills: { indexed: number; evalSkills: number; evalSkillsIndexed: number; distractors: number; invalid: number; warnings: number };
  all: TriggerCounts;
  byScript: Record<Script, TriggerCounts>;
  /** ROC AUC of P(in scope) between positives and near misses (0.5 = no separation). */
  inScopeAuc: number;
  /** Expected calibration error of the best candidate's confidence against "injecting it is right", over every case. */
  ece: number;
  /** The share scale `router index` measured on this index (none when too few skills could lend a request). */
  shareScale: ShareScaleMeasure | undefined;
  /** Positives whose expected skill is not in the index (refused at indexing). */
  positivesOfMissingSkills: number;
  /** What reaches the agent (scored with the judgments file): the router's answer, inject or none, and always the top 3. */
  reach: Record<AnswerKind, ReachCounts>;
  /** Everyday requests that need no skill, under the router's answer and under inject or none. */
  everyday: Record<Exclude<AnswerKind, "topThree">, EverydayCounts>;
}

/** The answers compared: the router's (inject, offer or none), inject or none (`offer: false`), and a list of the top 3 always. */
export type AnswerKind = "answer" | "injectOrNone" | "topThree";
/** The agent's judgments of the requests of cases.json, in the eval folder. */
const JUDGMENTS = "agent-judgments.jsonl";

/** Indexes trigger-dev's skills with the distractors (cached, updated in place) and routes every case. */
export async function measureTriggerDev(options: TriggerDevOptions): Promise<TriggerDevFigures> {
  const { evalDir } = options;
  const cases = (JSON.parse(readFileSync(path.join(evalDir, "cases.json"), "utf8")) as { cases: Case[] }).cases;
  const evalSkillDir = path.join(evalDir, "skills");
  const evalSkills = readdirSync(evalSkillDir);
  mkdirSync(options.cacheDir, { recursive: true });
  // The models as the CLI would take them (ROUTER_EMBEDDER, ROUTER_MODELS_DIR, ...); one cached index per embedder and
  // track, so measuring another does not re-embed the default's.
  const models = modelOptions(loadSettings().settings);
  const db = path.join(options.cacheDir, `trigger-dev-${options.distractors.label}-${options.track}-${planEmbedder(models).id}.db`);
  if (options.fresh) for (const suffix of ["", "-wal", "-shm"]) rmSync(`${db}${suffix}`, { force: true });
  const started = performance.now();
  // The floor is measured again on the cached index: a floor measured by earlier code would not score this code.
  const imports = options.track === "llm" ? readResponseLines(readFileSync(path.join(evalDir, LLM_MANIFESTS), "utf8"), LLM_MANIFESTS).imports : undefined;
  const summary = await runIndex({ paths: [evalSkillDir, ...options.distractors.paths], db, recalibrate: true, models, ...(imports ? { expansion: { imports } } : {}) });
  const imported = importedSkills(db);
  options.log(
    `trigger-dev, ${options.distractors.label} distractors, ${options.track} track (${imported} imported): ${summary.skills} skills indexed (${summary.embedded} embedded) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );

  const router = await createRouter({ db, models });
  try {
    const known = new Set(router.skills().map((skill) => skill.name));
    const evalSkillsIndexed = evalSkills.filter((name) => known.has(name)).length;
    const { all, byScript, scores, outcomes, reach } = await routeCases(router, cases, readJudgments(path.join(evalDir, JUDGMENTS)));
    return {
      distractorSet: options.distractors.label,
      db,
      track: options.track,
      imported,
      skills: {
        indexed: summary.skills,
        evalSkills: evalSkills.length,
        evalSkillsIndexed,
        distractors: summary.skills - evalSkillsIndexed,
        invalid: summary.invalid.length,
        warnings: summary.warnings.length,
      },
      all,
      byScript,
      inScopeAuc: rocAuc(scores),
      ece: computeMetrics(outcomes).ece,
      shareScale: summary.shareScale,
      positivesOfMissingSkills: cases.filter((item) => item.expected !== null && !known.has(item.expected)).length,
      reach,
      everyday: await routeEveryday(router, everydayRequests(options.everydaySets)),
    };
  } finally {
    await router.close();
  }
}

/** Skills of the index whose stored manifest was imported (on the LLM track, the rest keep the heuristic's: the file has no line for them). */
function importedSkills(db: string): number {
  const index = openIndexForRead(db);
  try {
    return [...readManifests(index).values()].filter((stored) => stored.source === "import").length;
  } finally {
    index.close();
  }
}

/** Routes every case and counts, overall and by script, what the tables report; with judgments, what reaches the agent. */
export async function routeCases(
  router: Router,
  cases: Case[],
  judgments: Map<string, AgentJudgment> = new Map(),
): Promise<{ all: TriggerCounts; byScript: Record<Script, TriggerCounts>; scores: { positive: boolean; score: number }[]; outcomes: ScoredOutcome[]; reach: Record<AnswerKind, ReachCounts> }> {
  const all = emptyCounts();
  const byScript = { latin: emptyCounts(), han: emptyCounts(), hangul: emptyCounts() };
  const scores: { positive: boolean; score: number }[] = [];
  const outcomes: ScoredOutcome[] = [];
  const reach: Record<AnswerKind, ReachCounts> = { answer: emptyReach(), injectOrNone: emptyReach(), topThree: emptyReach() };
  for (const item of cases) {
    const query = routableQuery(item.query);
    const answered = await router.route(query, { k: 5 });
    // The inject-or-none rule's answer, as before offers (its table's columns).
    const result = await router.route(query, { k: 3, offer: false });
    const injected = result.decision === "inject" ? result.selected[0] : undefined;
    for (const counts of [all, byScript[scriptOf(item.query)]]) {
      if (item.expected !== null) {
        counts.positives++;
        if (result.skills[0]?.name === item.expected) counts.top1++;
        if (injected === item.expected) counts.injectedRight++;
      } else {
        counts.negatives++;
        if (injected === item.source) counts.negativesOwnSkill++;
        if (injected !== undefined) counts.negativesAnySkill++;
      }
    }
    const judgment = judgments.get(item.query);
    const handed: Record<AnswerKind, Handed> = { answer: handedBy(answered), injectOrNone: handedBy(result), topThree: offeringTop(answered, 3) };
    for (const kind of Object.keys(reach) as AnswerKind[]) countReach(reach[kind], handed[kind], judgment, item.expected, item.source);
    scores.push({ positive: item.expected !== null, score: result.in_scope });
    outcomes.push({ expected: item.expected, ...scoredAnswer(result), latencyMs: 0 });
  }
  return { all, byScript, scores, outcomes, reach };
}

/** The labelled sets whose no-skill requests stand for everyday requests: MetaTool's "no tool needed", CLINC150's out-of-scope. */
export function everydaySets(sharedEval: string): string[] {
  return [path.join(sharedEval, "metatool.json"), path.join(sharedEval, "clinc150.json")];
}

/** The no-skill requests of labelled sets (each case whose expected skill is null). */
export function everydayRequests(files: string[]): string[] {
  return files.flatMap((file) =>
    (JSON.parse(readFileSync(file, "utf8")) as { cases: { query: string; expected: string | null }[] }).cases.filter((item) => item.expected === null).map((item) => item.query),
  );
}

/** Routes requests that need no skill: what the router's answer and inject or none hand the agent for them. */
export async function routeEveryday(router: Router, queries: string[]): Promise<Record<"answer" | "injectOrNone", EverydayCounts>> {
  const counts = { answer: { requests: 0, offered: 0, injected: 0, tokens: [] as number[] }, injectOrNone: { requests: 0, offered: 0, injected: 0, tokens: [] as number[] } };
  for (const query of queries) {
    countEveryday(counts.answer, handedBy(await router.route(routableQuery(query), { k: 5 })));
    countEveryday(counts.injectOrNone, handedBy(await router.route(routableQuery(query), { k: 3, offer: false })));
  }
  return counts;
}

function emptyCounts(): TriggerCounts {
  return { positives: 0, negatives: 0, top1: 0, injectedRight: 0, negativesOwnSkill: 0, negativesAnySkill: 0 };
}

/** The script a query is written in, as the eval set's README counts them. */
export function scriptOf(text: string): Script {
  if (/\p{Script=Hangul}/u.test(text)) return "hangul";
  if (/\p{Script=Han}/u.test(text)) return "han";
  return "latin";
}
