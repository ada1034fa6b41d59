/**
 * The clauses a text opens with a cue ("do not", "不要"): each runs from its cue to the first `clauseEnd` after it
 * (that character not included) or to the end of the text. Cues must be global patterns.
 */
export function cueClauses(text: string, cues: RegExp[], clauseEnd: RegExp): [start: number, end: number][] {
  const spans: [number, number][] = [];
  for (const cue of cues) {
    for (const match of text.matchAll(cue)) {
      const after = match.index! + match[0].length;
      const end = text.slice(after).search(clauseEnd);
      spans.push([match.index!, end === -1 ? text.length : after + end]);
    }
  }
  return spans;
}
