import path from "node:path";
import { fitIndexScope } from "../src/calibrate/fit-index-scope.js";
import { measureShareScale } from "../src/calibrate/measure-share-scale.js";
import { indexEvalSet } from "../src/eval/eval-index.js";
import type { EvalCase, EvalSet } from "../src/eval/eval-set.js";
import { computeMetrics, percentiles, type EvalMetrics } from "../src/eval/metrics.js";
import { splitCases } from "../src/eval/split.js";
import { createEmbedder } from "../src/models/create-embedder.js";
import type { RerankerLoad } from "../src/models/embedder.js";
import { createQueryEncoder } from "../src/models/query-encoder.js";
import { evidenceFloorRecord } from "../src/store/evidence-floor.js";
import { fitIndex } from "../src/fit/fit-index.js";
import type { RoutingParams } from "../src/route/routing-params.js";
import { openIndexForRead, openIndexForWrite } from "../src/store/database.js";
import { readMeta } from "../src/store/index-meta.js";
import type { MethodId } from "./method-catalogue.js";
import { bm25Description } from "./methods/bm25-description.js";
import { denseDescription } from "./methods/dense-description.js";
import { ruvectorPeer } from "./methods/ruvector-peer.js";
import { hybridRouter } from "./methods/hybrid-router.js";
import { keywordRouter, manifestKeywords } from "./methods/keyword-router.js";
import type { RoutingMethod } from "./methods/routing-method.js";
import { runMethod } from "./run-method.js";
import { stripExamples } from "./strip-examples.js";

export interface DatasetSpec {
  name: string;
  /** The eval set, with its example queries when it has them. */
  file: string;
  /** The same set without example queries (method d); derived from `file` when omitted. */
  withoutExamples?: string;
}

export interface MethodFigures {
  id: MethodId;
  /** Why the method was not measured on this set; then there are no metrics. */
  skipped?: string;
  metrics?: EvalMetrics;
  /** Whether its confidence is a probability, so that ECE means something. */
  calibrated?: boolean;
  /** p50 latency without the query embedding. */
  p50NoEmbedMs?: number;
  /** p95 latency without the query embedding. */
  p95NoEmbedMs?: number;
}

export interface DatasetFigures {
  name: string;
  /** The eval set's file name (not its path: results.json is committed). */
  file: string;
  skills: number;
  trainCases: number;
  testCases: number;
  methods: MethodFigures[];
}

export interface AccuracyEnvironment {
  cacheDir: string;
  reranker: RerankerLoad;
  /** Default parameters fitted without the named eval set (leave-one-dataset-out); undefined when no other set is left. */
  unseenDefaults: (name: string) => RoutingParams | undefined;
  log: (message: string) => void;
}

/** Every method on one eval set's test half (the training half only fits thresholds and `router fit`); `set` is spec.file read. */
export async function measureDataset(spec: DatasetSpec, set: EvalSet, env: AccuracyEnvironment): Promise<DatasetFigures> {
  const skills = set.skills ?? [];
  const { train, test } = splitCases(set.cases);
  const hasExamples = skills.some((skill) => (skill.queries ?? []).length > 0);
  const plainFile = hasExamples ? (spec.withoutExamples ?? stripExamples(set, spec.file, env.cacheDir)) : spec.file;
  env.log(`${spec.name}: indexing (cached in ${env.cacheDir})`);
  const plainIndex = (await indexEvalSet(plainFile, env.cacheDir)).db;
  const examplesIndex = hasExamples ? (await indexEvalSet(spec.file, env.cacheDir)).db : undefined;
  const mainIndex = examplesIndex ?? plainIndex;

  const reranker = env.reranker.status === "ready" ? env.reranker.reranker : undefined;
  const measure = async (id: MethodId, make: () => Promise<RoutingMethod>): Promise<MethodFigures> => {
    const started = performance.now();
    const method = await make();
    try {
      const outcomes = await runMethod(method, test);
      env.log(`${spec.name} ${id}: ${test.length} cases in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      const withoutEmbedding = percentiles(outcomes.map((outcome) => outcome.latencyMs - outcome.embedMs));
      return { id, metrics: computeMetrics(outcomes), calibrated: method.calibrated, p50NoEmbedMs: withoutEmbedding.p50, p95NoEmbedMs: withoutEmbedding.p95 };
    } finally {
      await method.close();
    }
  };
  const unseen = env.unseenDefaults(spec.name);
  const methods: MethodFigures[] = [
    await measure("a", async () => keywordRouter(manifestKeywords(mainIndex))),
    await measure("b", () => bm25Description(skills, train)),
    await measure("c", async () => denseDescription(skills, await createEmbedder(), train)),
    await measure("p", async () => ruvectorPeer(skills, await createEmbedder(), train)),
    await measure("d", () => hybridRouter({ db: plainIndex })),
    examplesIndex ? await measure("e", () => hybridRouter({ db: examplesIndex })) : { id: "e", skipped: "no example queries in this set: d is its main row" },
    unseen ? await measure("h", async () => hybridRouter({ db: plainIndex, params: await asShippedDefaults(unseen, plainIndex) })) : { id: "h", skipped: NO_OTHER_SET },
    !unseen
      ? { id: "i", skipped: NO_OTHER_SET }
      : examplesIndex
        ? await measure("i", async () => hybridRouter({ db: examplesIndex, params: await asShippedDefaults(unseen, examplesIndex) }))
        : { id: "i", skipped: "no example queries in this set: h is its main row" },
    reranker ? await measure("f", () => hybridRouter({ db: mainIndex, tieBreak: reranker })) : { id: "f", skipped: "not measured: cross-encoder unavailable (see below)" },
    await measure("g", async () => hybridRouter({ db: await fittedCopy(mainIndex, train, spec.name, env.cacheDir) })),
  ];
  return { name: spec.name, file: path.basename(spec.file), skills: skills.length, trainCases: train.length, testCases: test.length, methods };
}

const NO_OTHER_SET = "no other eval set to fit defaults without this one";

/**
 * Parameters as `paramsFor` would serve them on an index that was never fitted, had they shipped as the defaults: with
 * the evidence floor `router index` measured, and the share scale and in-scope model it would measure for their ranking.
 */
async function asShippedDefaults(params: RoutingParams, db: string): Promise<RoutingParams> {
  const index = openIndexForWrite(db);
  const encoder = await createQueryEncoder();
  try {
    const floor = evidenceFloorRecord.read(index);
    const shares = await measureShareScale(index, encoder, params);
    const calibrated = { ...params, ...(floor ? { evidenceFloor: floor } : {}), ...(shares ? { shareScale: shares.scale } : {}) };
    const scope = await fitIndexScope(index, encoder, calibrated, readMeta(index).indexVersion);
    return { ...calibrated, ...(scope?.model && scope.threshold !== undefined ? { requestScope: { ...scope.model, threshold: scope.threshold } } : {}) };
  } finally {
    await encoder.close();
    index.close();
  }
}

/** A copy of the index fitted on the training half only (the cached index stays on the default parameters). */
async function fittedCopy(db: string, train: EvalCase[], name: string, cacheDir: string): Promise<string> {
  const copy = path.join(cacheDir, `${name}-fitted.db`);
  const source = openIndexForRead(db);
  try {
    await source.backup(copy);
  } finally {
    source.close();
  }
  await fitIndex({ db: copy, train, test: [], origin: `bench: router fit on the training half of ${name}` });
  return copy;
}
