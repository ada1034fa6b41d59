/**
 * A score threshold for methods that only rank: the highest one that still routes `share` of the in-scope
 * training cases (their best score at or above it). Chosen on training cases, applied to test cases.
 */
export function keepRoutedThreshold(bestScores: number[], share: number): number {
  if (bestScores.length === 0) return 0;
  const sorted = [...bestScores].sort((a, b) => b - a);
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)]!;
}

/** The routed share the baselines' thresholds keep: the same 90% the issue-5 abstention target routes at. */
export const BASELINE_ROUTED_SHARE = 0.9;
