import type { RouteQuery } from "./query.js";
import type { Retriever } from "./retriever.js";

/** The union of every retriever's best `perRetriever` skills, in the order found: what the pipeline scores exactly. */
export function gatherCandidates(retrievers: Retriever[], query: RouteQuery, perRetriever: number, allowed?: (skill: number) => boolean): number[] {
  const candidates = new Set<number>();
  for (const retriever of retrievers) for (const hit of retriever.retrieve(query, perRetriever, allowed)) candidates.add(hit.skill);
  return [...candidates];
}
