/** ROC AUC: the probability that a random positive scores above a random negative (ties count half; 0.5 without both). */
export function rocAuc(scores: { positive: boolean; score: number }[]): number {
  const sorted = [...scores].sort((a, b) => a.score - b.score);
  let rankSum = 0;
  let positives = 0;
  for (let start = 0; start < sorted.length; ) {
    let end = start;
    while (end < sorted.length && sorted[end]!.score === sorted[start]!.score) end++;
    const rank = (start + 1 + end) / 2;
    for (let i = start; i < end; i++) if (sorted[i]!.positive) [rankSum, positives] = [rankSum + rank, positives + 1];
    start = end;
  }
  const negatives = sorted.length - positives;
  return positives > 0 && negatives > 0 ? (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives) : 0.5;
}
