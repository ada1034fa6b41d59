import path from "node:path";
import { indexEvalSet } from "../src/eval/eval-index.js";
import { readEvalSet } from "../src/eval/eval-set.js";
import { splitCases } from "../src/eval/split.js";
import { collectSamples, fitParams, type FitSample } from "../src/fit/fit-params.js";
import { DEFAULT_PARAMS } from "../src/route/index-params.js";
import type { RoutingParams } from "../src/route/routing-params.js";
import { createRouter } from "../src/route/router.js";

/** The labelled sets whose training halves fit the shipped defaults (metatool twice: with and without example queries). */
export const DEFAULT_FIT_SETS = ["metatool", "metatool-noexamples", "clinc150", "bfcl"];

/**
 * Real skills lean on words more than the tool sets the defaults are fitted on: the ranking gets this much more
 * weight on relative BM25 than the fit alone gives. Chosen on the trigger-dev development set (never fitted on
 * it), within one point of every labelled set's in-distribution top-1 (bench/RESULTS.md).
 */
export const LEXICAL_PRIOR: Partial<RoutingParams["ranking"]> = { bm25_rel: 2 };

/** Every training case of one eval set, scored by the router over that set's (cached) index. */
export async function trainingSamples(file: string, cacheDir: string, log: (message: string) => void): Promise<FitSample[]> {
  const name = path.basename(file, ".json");
  const { db } = await indexEvalSet(file, cacheDir);
  const { train } = splitCases(readEvalSet(file).cases);
  const router = await createRouter({ db, params: DEFAULT_PARAMS });
  try {
    const started = performance.now();
    const samples = await collectSamples(router, train);
    log(`${name}: ${train.length} training cases scored in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    return samples;
  } finally {
    await router.close();
  }
}

/** Default parameters fitted on the given sets' training samples, as `bench/fit-defaults.ts` ships them. */
export function fitDefaults(samples: Map<string, FitSample[]>, embedder: string | null) {
  const names = [...samples.keys()];
  return fitParams(
    names.flatMap((name) => samples.get(name)!),
    {
      origin: `defaults fitted by bench/fit-defaults.ts on the training halves of ${names.join(", ")}, lexical prior ${JSON.stringify(LEXICAL_PRIOR)}`,
      embedder,
      fallback: DEFAULT_PARAMS,
      indexSpecific: false,
      rankingPrior: LEXICAL_PRIOR,
    },
  );
}
