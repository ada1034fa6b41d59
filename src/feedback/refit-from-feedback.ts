import { evenSample } from "../calibrate/even-sample.js";
import { withHeldOut } from "../calibrate/held-out-index.js";
import { routableQuery } from "../contract/limits.js";
import { fitParams, type FitSample } from "../fit/fit-params.js";
import type { QueryEncoder } from "../models/query-encoder.js";
import { MAX_OFFERED } from "../route/answer.js";
import { DEFAULT_PARAMS, paramsFor } from "../route/index-params.js";
import { rankingLogit, type RoutingParams } from "../route/routing-params.js";
import { prepareQuery } from "../route/query.js";
import { DEFAULT_CANDIDATES, scoredCandidates } from "../route/router.js";
import { replaceAbstainExamples } from "../store/abstain-examples.js";
import type { IndexDatabase } from "../store/database.js";
import { listFeedback, type FeedbackRow } from "../store/feedback-rows.js";
import { readMeta } from "../store/index-meta.js";
import { fittedParamsRecord } from "../store/routing-params.js";
import { skillsWithUsageTexts } from "../store/vectors.js";

/** Labels before the decision is refit from feedback, of each kind: with fewer, a fit says more about the sample than the index. */
export const REFIT_MIN_LABELS = { examples: 100, none: 30 };
// A refit is done again only once the labels have grown by this share: a few more say little new, and it costs seconds.
const REFIT_GROWTH = 1.25;
// Each label is scored on the index without the requests from use of its own fold: a request never finds itself.
const FOLDS = 2;
// Labels the refit scores, at most, in an even spread: ten weights need no more, and each one costs a route (10,000 took 26 s).
const MAX_SCORED_LABELS = 2_000;
/** How parameters refit from feedback say so (`router fit` on the user's own labels is never overwritten). */
export const FEEDBACK_ORIGIN = "refit from feedback";

export interface FeedbackRefit {
  /** Requests confirmed for a skill, and requests no skill should answer, that the fit learned from. */
  examples: number;
  none: number;
  /** Decision rates on those labels at the fitted thresholds. */
  training: { routed: number; abstained: number; correct: number };
}

/**
 * Refits the routing parameters from the index's feedback with the `router fit` machinery (its thresholds answering the
 * most labels right, near misses among them), once there are enough labels, and keeps the refit only when it ranks at
 * least as many confirmed requests' skills where an answer reaches the agent as the parameters it would replace
 * (and more than at the last refit), unless `router fit` stored parameters of its own. Each label is scored on the index
 * without its fold's requests from use (inside a savepoint), as a new request would be. Writes in the caller's transaction.
 */
export async function refitFromFeedback(db: IndexDatabase, encoder: () => Promise<QueryEncoder>, minimum = REFIT_MIN_LABELS): Promise<FeedbackRefit | undefined> {
  const labels = listFeedback(db).filter((row) => row.role === "example" || row.role === "none");
  const examples = labels.filter((row) => row.role === "example").length;
  const none = labels.length - examples;
  if (examples < minimum.examples || none < minimum.none) return undefined;
  const stored = fittedParamsRecord.read(db);
  if (stored && !stored.origin.startsWith(FEEDBACK_ORIGIN)) return undefined;
  if (stored && labels.length < REFIT_GROWTH * labelsIn(stored.origin)) return undefined;
  const samples = await heldOutSamples(db, evenSample(labels, MAX_SCORED_LABELS), await encoder());
  const embedder = readMeta(db).embedder ?? null;
  const fitted = fitParams(samples, { origin: `${FEEDBACK_ORIGIN}: ${labels.length} labels`, embedder, fallback: DEFAULT_PARAMS, mostRight: true });
  // A refit may never put fewer confirmed requests' skills where they reach the agent than the parameters serving now.
  if (reachable(samples, fitted.params) < reachable(samples, paramsFor(db, embedder))) return undefined;
  fittedParamsRecord.write(db, fitted.params);
  replaceAbstainExamples(db, embedder ?? "", fitted.abstainExamples);
  return { examples, none, training: { routed: fitted.training.routed, abstained: fitted.training.abstained, correct: fitted.training.correct } };
}

/** Confirmed requests whose skill ranks where an answer can hand it to the agent: among the first MAX_OFFERED. */
function reachable(samples: FitSample[], params: RoutingParams): number {
  return samples.filter((sample) => {
    if (sample.expected === null) return false;
    const logits = sample.features.slice(0, sample.choices).map((row) => rankingLogit(params, row));
    const own = sample.names.indexOf(sample.expected);
    return own >= 0 && own < sample.choices && logits.filter((logit) => logit > logits[own]!).length < MAX_OFFERED;
  }).length;
}

/** Every label scored as routing scores a new request: on the index without the requests from use of its fold. */
async function heldOutSamples(db: IndexDatabase, labels: FeedbackRow[], encoder: QueryEncoder): Promise<FitSample[]> {
  const withUsage = skillsWithUsageTexts(db).map((skill) => skill.id);
  const samples: FitSample[] = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const own = labels.filter((row) => row.id % FOLDS === fold);
    const usage = own.map((row) => row.query);
    await withHeldOut(
      db,
      withUsage.map((skillId) => ({ skillId, queries: [], usage })),
      DEFAULT_PARAMS,
      async (snapshot) => {
        for (const row of own) {
          const query = await prepareQuery(encoder, routableQuery(row.query), undefined);
          samples.push({ ...scoredCandidates(snapshot, query, DEFAULT_CANDIDATES, {}), query: row.query, expected: row.role === "example" ? row.skill : null });
        }
      },
    );
  }
  return samples;
}

/** The labels a refit's origin says it learned from (0 when it does not say). */
function labelsIn(origin: string): number {
  return Number(/: (\d+) labels$/.exec(origin)?.[1] ?? 0);
}
