/** An inverted index: each term's documents (by position) with the term's value in them (a count or a weight). */
export function buildPostings(documents: Map<string, number>[]): Map<string, { index: number; value: number }[]> {
  const postings = new Map<string, { index: number; value: number }[]>();
  documents.forEach((terms, index) => {
    for (const [term, value] of terms) {
      const list = postings.get(term) ?? [];
      list.push({ index, value });
      postings.set(term, list);
    }
  });
  return postings;
}
