import { dotRow } from "../models/vector-math.js";
import type { Candidate, Retriever, RouteQuery } from "./retriever.js";
import type { RouteModel } from "./route-model.js";
import { topK } from "./top-k.js";

/**
 * Dense coarse stage: one centroid per skill (the mean of its queries and description), so a query costs
 * one dot product per skill however many synthetic queries each has; survivors are rescored exactly.
 */
export function denseRetriever(model: Pick<RouteModel, "skills" | "centroids" | "dimension">): Retriever {
  const { centroids, dimension } = model;
  const count = model.skills.length;
  const scores = new Float32Array(count);
  return {
    name: "dense",
    retrieve(query: RouteQuery, limit: number, allowed?: (skill: number) => boolean): Candidate[] {
      const vector = query.vector;
      for (let skill = 0; skill < count; skill++) {
        if (!allowed || allowed(skill)) scores[skill] = dotRow(vector, centroids, skill, dimension);
      }
      return topK(scores, limit, allowed).map((skill) => ({ skill, score: scores[skill]! }));
    },
  };
}
