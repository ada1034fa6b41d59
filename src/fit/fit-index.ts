import { createError } from "../errors.js";
import type { EvalCase } from "../eval/eval-set.js";
import { computeMetrics, type EvalMetrics } from "../eval/metrics.js";
import { runCases } from "../eval/run-cases.js";
import { replaceAbstainExamples } from "../store/abstain-examples.js";
import { openIndexForWrite } from "../store/database.js";
import { DEFAULT_PARAMS } from "../route/index-params.js";
import { fittedParamsRecord } from "../store/routing-params.js";
import type { RoutingParams } from "../route/routing-params.js";
import type { ModelSettings } from "../models/model-settings.js";
import type { QueryEncoder } from "../models/query-encoder.js";
import { createRouter } from "../route/router.js";
import { requireKnownSkills } from "../route/known-skills.js";
import { collectSamples, fitParams } from "./fit-params.js";

export interface FitIndexOptions {
  db: string;
  train: EvalCase[];
  /** Held-out cases, routed with the new parameters after the fit; never used to fit. */
  test: EvalCase[];
  origin: string;
  minRouted?: number;
  queryEncoder?: QueryEncoder;
  /** Where the model files are and which embedder to load, when no query encoder is given. */
  models?: Partial<ModelSettings>;
  onProgress?: (stage: "collect" | "evaluate", done: number, total: number) => void;
}

export interface FitIndexReport {
  params: RoutingParams;
  abstainExamples: number;
  training: { cases: number; routed: number; abstained: number; correct: number };
  heldOut: EvalMetrics | null;
}

/** Fits the routing parameters on labelled cases, stores it (and the abstain examples) in the index, scores the held-out cases. */
export async function fitIndex(options: FitIndexOptions): Promise<FitIndexReport> {
  if (options.train.length === 0) throw createError("INVALID_ARGUMENT", "No training cases to fit on");
  const router = await createRouter({ db: options.db, ...(options.queryEncoder ? { queryEncoder: options.queryEncoder } : {}), models: options.models, params: DEFAULT_PARAMS });
  let fitted: ReturnType<typeof fitParams>;
  let embedder: string | null;
  try {
    const known = new Set(router.skills().map((skill) => skill.name));
    requireKnownSkills(
      options.train.flatMap((item) => (item.expected === null ? [] : [item.expected])),
      (name) => known.has(name),
    );
    embedder = router.status().embedder;
    const samples = await collectSamples(router, options.train, (done, total) => options.onProgress?.("collect", done, total));
    fitted = fitParams(samples, { origin: options.origin, embedder, fallback: DEFAULT_PARAMS, ...(options.minRouted !== undefined ? { minRouted: options.minRouted } : {}) });
  } finally {
    await router.close();
  }

  const db = openIndexForWrite(options.db);
  try {
    db.transaction(() => {
      fittedParamsRecord.write(db, fitted.params);
      replaceAbstainExamples(db, embedder ?? "", fitted.abstainExamples);
    })();
  } finally {
    db.close();
  }

  let heldOut: EvalMetrics | null = null;
  if (options.test.length > 0) {
    const evaluator = await createRouter({ db: options.db, ...(options.queryEncoder ? { queryEncoder: options.queryEncoder } : {}), models: options.models });
    try {
      heldOut = computeMetrics(await runCases(evaluator, options.test, 3, (done, total) => options.onProgress?.("evaluate", done, total)));
    } finally {
      await evaluator.close();
    }
  }
  return { params: fitted.params, abstainExamples: fitted.abstainExamples.length, training: fitted.training, heldOut };
}
