import { createError } from "../errors.js";
import type { IndexProgress } from "../indexer/run-index.js";
import type { ModelSettings } from "../models/model-settings.js";
import { createRouter } from "../route/router.js";
import { readEvalFile } from "./eval-file.js";
import { indexEvalSet } from "./eval-index.js";
import type { EvalCase } from "./eval-set.js";
import { computeMetrics, EVAL_K, type EvalMetrics } from "./metrics.js";
import { runCases, type CaseOutcome } from "./run-cases.js";
import { requireKnownSkills } from "../route/known-skills.js";
import { splitCases, type SplitOptions } from "./split.js";
import { triggerCases } from "./trigger-eval.js";
import { routedElsewhere, triggerView } from "./trigger-view.js";

export type SplitChoice = "test" | "train" | "all";

export interface EvaluateOptions {
  file: string;
  /** Evaluate against this index. Without it, an eval set's own skills are indexed (cached in cacheDir), else `fallbackDb` is used. */
  db?: string;
  fallbackDb: string;
  cacheDir: string;
  /** Where the model files are and which embedder to load (default: auto, this installation's models/). */
  models?: Partial<ModelSettings>;
  /** For trigger-eval files: the skill they are about. */
  skill?: string;
  /** Default: the test split for eval sets (the half `router fit` never sees), every case for trigger evals. */
  split?: SplitChoice;
  splitOptions: SplitOptions;
  onIndexProgress?: (event: IndexProgress) => void;
  onCaseProgress?: (done: number, total: number) => void;
}

export interface EvalReport {
  file: string;
  format: "eval-set" | "trigger-eval";
  skill: string | null;
  split: SplitChoice;
  db: string;
  /** Set when this run indexed the eval set's skills: how many were embedded (0: the cached index was current) and how long it took. */
  indexed: { embedded: number; durationMs: number } | null;
  metrics: EvalMetrics;
  /** Trigger evals only: should-not cases that another skill took (right for this skill). */
  routedElsewhere: number | null;
  outcomes: CaseOutcome[];
}

/** Routes an eval file's cases (one split of them) and measures the answers. */
export async function evaluateFile(options: EvaluateOptions): Promise<EvalReport> {
  const content = readEvalFile(options.file);
  if (content.kind === "trigger-eval" && !options.skill) {
    throw createError("INVALID_ARGUMENT", `${options.file} is a trigger-eval file: say which skill it is about with --skill <name>`);
  }
  if (content.kind === "eval-set" && options.skill) {
    throw createError("INVALID_ARGUMENT", `--skill is for trigger-eval files; ${options.file} is an eval set with its own expected skills`);
  }
  const skill = content.kind === "trigger-eval" ? options.skill! : null;
  const all = content.kind === "trigger-eval" ? triggerCases(content.evals, skill!) : content.set.cases;
  const split = options.split ?? (skill ? "all" : "test");
  const cases = chooseSplit(all, split, options.splitOptions);
  if (cases.length === 0) throw createError("INVALID_ARGUMENT", `${options.file} has no cases in the ${split} split`);

  const buildIndex = !options.db && content.kind === "eval-set" && content.set.skills !== undefined && content.set.skills.length > 0;
  const built = buildIndex ? await indexEvalSet(options.file, options.cacheDir, options.models, options.onIndexProgress) : undefined;
  const db = built?.db ?? options.db ?? options.fallbackDb;
  const router = await createRouter({ db, models: options.models });
  try {
    checkNames(
      router.skills().map((entry) => entry.name),
      cases,
      skill,
    );
    const outcomes = await runCases(router, cases, EVAL_K, options.onCaseProgress);
    const scored = skill ? outcomes.map((outcome) => triggerView(outcome, skill)) : outcomes;
    return {
      file: options.file,
      format: content.kind,
      skill,
      split,
      db,
      indexed: built ? { embedded: built.embedded, durationMs: built.durationMs } : null,
      metrics: computeMetrics(scored),
      routedElsewhere: skill ? routedElsewhere(outcomes, skill) : null,
      outcomes: scored,
    };
  } finally {
    await router.close();
  }
}

function chooseSplit(cases: EvalCase[], split: SplitChoice, options: SplitOptions): EvalCase[] {
  return split === "all" ? cases : splitCases(cases, options)[split];
}

/** Expected skills the index does not hold would count as silent misses: name them instead. */
function checkNames(indexed: string[], cases: EvalCase[], skill: string | null): void {
  const known = new Set(indexed);
  requireKnownSkills([...(skill ? [skill] : []), ...cases.flatMap((item) => (item.expected === null ? [] : [item.expected]))], (name) => known.has(name));
}
