import bm25 from "wink-bm25-text-search";
import { analyseText } from "../text/analyse-text.js";
import type { Candidate, Retriever, RouteQuery } from "./retriever.js";
import { searchableFields, type RouteModel } from "./route-model.js";

// Field weights: a word in the name or the keywords says more than one in a long description, or in the body.
const FIELD_WEIGHTS = { name: 3, keywords: 2, phrases: 2, queries: 1, description: 1, body: 0.5 };
// wink-bm25 refuses to consolidate fewer than 3 documents; tiny indexes get empty filler documents.
const MIN_DOCUMENTS = 3;

/** BM25F over each skill's name, description, keywords, phrases and synthetic queries. */
export function bm25Retriever(model: Pick<RouteModel, "skills">): Retriever {
  const engine = bm25();
  engine.defineConfig({ fldWeights: FIELD_WEIGHTS, bm25Params: { k1: 1.2, b: 0.75, k: 1 }, ovFldNames: ["skill"] });
  // Fields are analysed on the way in; a search receives terms already analysed, so it only splits them.
  for (const field of Object.keys(FIELD_WEIGHTS)) engine.definePrepTasks([analyseText as (input: never) => unknown], field);
  engine.definePrepTasks([splitTerms as (input: never) => unknown]);
  model.skills.forEach((skill, index) => engine.addDoc({ ...searchableFields(skill), skill: index }, index));
  for (let filler = model.skills.length; filler < MIN_DOCUMENTS; filler++) {
    engine.addDoc({ name: "", description: "", body: "", keywords: "", phrases: "", queries: "", skill: -1 }, filler);
  }
  engine.consolidate();
  return {
    name: "bm25",
    retrieve(query: RouteQuery, limit: number, allowed?: (skill: number) => boolean): Candidate[] {
      const accept = (values: Record<string, unknown>) => {
        const skill = values["skill"] as number;
        return skill >= 0 && (!allowed || allowed(skill));
      };
      return engine.search(query.terms.join(" "), limit, accept).map(([id, score]) => ({ skill: Number(id), score }));
    },
  };
}

function splitTerms(terms: string): string[] {
  return terms.split(" ").filter(Boolean);
}
