// Names offered for one the index does not hold: the few closest by edit distance, when close enough to be a slip.
const OFFERED = 3;
const MAX_EDITS_SHARE = 0.4;

/** The known names nearest to `name` (edit distance, case aside), closest first. */
export function nearestNames(name: string, known: string[]): string[] {
  const wanted = name.toLowerCase();
  return known
    .map((candidate) => ({ candidate, edits: editDistance(wanted, candidate.toLowerCase()) }))
    .filter(({ candidate, edits }) => edits <= Math.max(2, MAX_EDITS_SHARE * Math.max(candidate.length, wanted.length)) || candidate.toLowerCase().includes(wanted))
    .sort((a, b) => a.edits - b.edits || a.candidate.localeCompare(b.candidate))
    .slice(0, OFFERED)
    .map(({ candidate }) => candidate);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, at) => at);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
