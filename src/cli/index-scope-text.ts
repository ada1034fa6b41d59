import type { IndexScope } from "../store/index-scope.js";

/** Which in-scope model serves an index's request-written manifests, and why, in a person's terms (`router index` and `router doctor` alike). */
export function indexScopeText(scope: IndexScope): string {
  const measured = `${scope.positives} requests held out of their skills against ${scope.negatives} that no skill answers`;
  if (!scope.model || scope.threshold === undefined) {
    return `the defaults serve: they tell ${measured} apart about as well as a model fitted on them (ROC AUC ${scope.auc.defaults.toFixed(2)} against ${scope.auc.fitted.toFixed(2)})`;
  }
  return `a model fitted on ${measured} serves request-written manifests (ROC AUC ${scope.auc.fitted.toFixed(2)} against the defaults' ${scope.auc.defaults.toFixed(2)}), threshold ${scope.threshold.toFixed(2)}`;
}
