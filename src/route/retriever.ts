/** A query as every retriever sees it. */
export interface RouteQuery {
  text: string;
  /** analyseText(text): stemmed content terms. */
  terms: string[];
  /** Unit vector of the query (context blended in, when given). */
  vector: Float32Array;
}

/** A skill (index into the route model) and the retriever's raw score for it. */
export interface Candidate {
  skill: number;
  score: number;
}

/** One retrieval strategy; all of them pass test/route/retriever-conformance.ts. */
export interface Retriever {
  readonly name: string;
  /** The best `limit` skills, best first; `allowed` restricts which skills may be returned. */
  retrieve(query: RouteQuery, limit: number, allowed?: (skill: number) => boolean): Candidate[];
}
