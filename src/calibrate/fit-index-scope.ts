import { routableQuery } from "../contract/limits.js";
import { fitLogistic } from "../fit/logistic-regression.js";
import { rocAuc } from "../fit/roc-auc.js";
import type { QueryEncoder } from "../models/query-encoder.js";
import { prepareQuery } from "../route/query.js";
import { DEFAULT_CANDIDATES, scoredCandidates } from "../route/router.js";
import { SCOPE_FEATURES, scopeModelProbability, type RoutingParams } from "../route/routing-params.js";
import { scoreCandidates } from "../route/score.js";
import type { Snapshot } from "../route/snapshot.js";
import type { IndexDatabase } from "../store/database.js";
import type { IndexScope } from "../store/index-scope.js";
import { readManifests } from "../store/manifest-rows.js";
import type { ScopeModel } from "../store/routing-params.js";
import { listSkills } from "../store/skill-rows.js";
import { evenSample } from "./even-sample.js";
import { EVERYDAY_REQUESTS } from "./everyday-requests.js";
import { withHeldOut } from "./held-out-index.js";
import { quantile } from "./quantile.js";

// Skills that lend a request: enough for a model of ten weights, few enough to cost seconds at index time.
const MAX_SKILLS = 600;
// Fewer held-out requests ranked first than this, and a fitted model says more about the sample than about the index.
const MIN_POSITIVES = 40;
// A skill lends a query only when two stay, and a near miss only when one stays: its own evidence must not vanish.
const MIN_QUERIES = 3;
const MIN_NEGATIVES = 2;
// The defaults were fitted on thousands of real labels: a model fitted on a few hundred held-out requests replaces them
// only when it separates this index's requests clearly better (ROC AUC, cross-validated). Chosen on the training sets'
// example-query indexes, where the defaults hold (MetaTool +0.007, CLINC150 +0.014).
const MIN_AUC_GAIN = 0.05;
// The fitted model's threshold: the P(in scope) that this share of the held-out requests ranked first reach.
const ROUTED_SHARE = 0.8;
const FOLDS = 5;

/** A routed probe as the fit reads it: the best candidate's scope features and what a right decision is. */
interface ScopeSample {
  row: number[];
  /** Injecting the best candidate is right (a held-out request whose own skill ranked first). */
  positive: boolean;
  /** P(in scope) under the defaults' model. */
  defaults: number;
  /** Samples of one skill share a fold: a skill's held-out request and its near miss are never split. */
  fold: number;
}

/**
 * The in-scope model for this index's request-written manifests (LLM, imported, hand-written, example queries), from
 * its own texts and no labels: each sampled skill's middle query and middle near miss are held out of the index and
 * routed. The query is a positive when its own skill ranks first; the same query with its skill left out, a near
 * miss that reaches its own skill, and everyday chat are negatives. Undefined when too few skills can lend a request.
 */
export async function fitIndexScope(
  db: IndexDatabase,
  encoder: QueryEncoder,
  params: RoutingParams,
  indexVersion: number,
  onProgress?: (done: number, total: number) => void,
): Promise<IndexScope | undefined> {
  const lenders = lendingSkills(db);
  if (lenders.length < MIN_POSITIVES) return undefined;
  const heldOut = lenders.map((skill) => ({ skillId: skill.id, queries: [skill.query], negatives: skill.negative ? [skill.negative] : [] }));
  const samples = await withHeldOut(db, heldOut, params, async (snapshot) => {
    const found: ScopeSample[] = [];
    const total = lenders.length + EVERYDAY_REQUESTS.length;
    let done = 0;
    for (const [at, skill] of lenders.entries()) {
      const fold = at % FOLDS;
      const query = await prepareQuery(encoder, routableQuery(skill.query), undefined);
      const asked = scoredSample(snapshot, params, query, {}, fold);
      if (asked) found.push({ ...asked.sample, positive: asked.best === skill.name });
      const absent = scoredSample(snapshot, params, query, { exclude: [skill.name] }, fold);
      if (absent) found.push(absent.sample);
      if (skill.negative) {
        const nearMiss = scoredSample(snapshot, params, await prepareQuery(encoder, routableQuery(skill.negative), undefined), {}, fold);
        // A near miss that reaches another skill may well be that skill's: only one that reaches its own is wrong for sure.
        if (nearMiss?.best === skill.name) found.push(nearMiss.sample);
      }
      onProgress?.(++done, total);
    }
    for (const [at, text] of EVERYDAY_REQUESTS.entries()) {
      const everyday = scoredSample(snapshot, params, await prepareQuery(encoder, routableQuery(text), undefined), {}, at % FOLDS);
      if (everyday) found.push(everyday.sample);
      onProgress?.(++done, total);
    }
    return found;
  });
  // The fitted model serves request-written best candidates only: heuristic ones keep the defaults.
  const requestWritten = samples.filter((sample) => sample.row[SCOPE_FEATURES.indexOf("heuristic")] !== 1);
  const positives = requestWritten.filter((sample) => sample.positive);
  const negatives = requestWritten.length - positives.length;
  if (positives.length < MIN_POSITIVES || negatives === 0) return undefined;
  const auc = {
    defaults: rocAuc(requestWritten.map((sample) => ({ positive: sample.positive, score: sample.defaults }))),
    fitted: rocAuc(crossValidated(requestWritten)),
  };
  const measured = { positives: positives.length, negatives, auc, indexVersion };
  if (auc.fitted - auc.defaults < MIN_AUC_GAIN) return measured;
  const model = fitScopeModel(requestWritten);
  return {
    ...measured,
    model,
    threshold: quantile(
      positives.map((sample) => scopeModelProbability(model, sample.row)),
      1 - ROUTED_SHARE,
    ),
  };
}

interface LendingSkill {
  id: string;
  name: string;
  query: string;
  negative: string | undefined;
}

/** An even sample of the skills with request-written manifests and enough queries to lend one: their middle query and middle negative. */
function lendingSkills(db: IndexDatabase): LendingSkill[] {
  const manifests = readManifests(db);
  const lenders = listSkills(db).flatMap((skill) => {
    const stored = manifests.get(skill.id);
    if (!stored || stored.source === "heuristic" || stored.manifest.queries.length < MIN_QUERIES) return [];
    const { queries, negatives } = stored.manifest;
    const negative = negatives.length >= MIN_NEGATIVES ? negatives[Math.floor(negatives.length / 2)] : undefined;
    return [{ id: skill.id, name: skill.name, query: queries[Math.floor(queries.length / 2)]!, negative }];
  });
  return evenSample(lenders, MAX_SKILLS);
}

/** A probe routed on the held-out index: its best candidate's name and scope features (undefined when nothing was found). */
function scoredSample(
  snapshot: Snapshot,
  params: RoutingParams,
  query: Awaited<ReturnType<typeof prepareQuery>>,
  options: { exclude?: string[] },
  fold: number,
): { best: string; sample: ScopeSample } | undefined {
  const scored = scoredCandidates(snapshot, query, DEFAULT_CANDIDATES, options);
  const scoring = scoreCandidates(params, scored.evidence, scored.features, 0);
  const best = scoring.ranked[0];
  if (!best) return undefined;
  return { best: snapshot.model.skills[best.evidence.skill]!.name, sample: { row: scoring.scopeFeatures, positive: false, defaults: scoring.inScope, fold } };
}

function fitScopeModel(samples: ScopeSample[]): ScopeModel {
  const fitted = fitLogistic(
    samples.map((sample) => sample.row),
    samples.map((sample) => (sample.positive ? 1 : 0)),
  );
  return { weights: Object.fromEntries(SCOPE_FEATURES.map((feature, index) => [feature, fitted.coefficients[index]!])) as ScopeModel["weights"], bias: fitted.intercept };
}

/** Each sample scored by a model fitted on the other folds: what the fitted model would do on requests it never saw. */
function crossValidated(samples: ScopeSample[]): { positive: boolean; score: number }[] {
  return Array.from({ length: FOLDS }, (_, fold) => {
    const model = fitScopeModel(samples.filter((sample) => sample.fold !== fold));
    return samples.filter((sample) => sample.fold === fold).map((sample) => ({ positive: sample.positive, score: scopeModelProbability(model, sample.row) }));
  }).flat();
}
