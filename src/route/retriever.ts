import type { LexicalIndex } from "./lexical-index.js";
import type { RouteQuery } from "./query.js";
import type { RouteModel } from "./route-model.js";

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

/** What a retriever is built over: one index version's model and its lexical index. */
export interface RetrievalSources {
  model: RouteModel;
  lexical: LexicalIndex;
}

/** Builds a retriever for an index version; `createRouter({ retrievers })` takes a list of these. */
export type RetrieverFactory = (sources: RetrievalSources) => Retriever;
