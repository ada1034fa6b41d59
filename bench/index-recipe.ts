import { HEURISTIC_VERSION } from "../src/expand/heuristic-expander.js";
import { planEmbedder } from "../src/models/create-embedder.js";
import { SCHEMA_VERSION } from "../src/store/migrations.js";

/** What a cached bench index's contents depend on besides its skills: a change to any means building it again. */
export function indexRecipe(): string {
  return `schema ${SCHEMA_VERSION}, embedder ${planEmbedder().id}, heuristic manifests ${HEURISTIC_VERSION}`;
}
