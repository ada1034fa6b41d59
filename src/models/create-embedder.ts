import type { Embedder } from "./embedder.js";
import { createUseLiteEmbedder } from "./use-lite-embedder.js";

export type EmbedderChoice = "auto" | "offline";

export interface EmbedderOptions {
  choice?: EmbedderChoice;
  modelsDir?: string;
}

/** The embedder to use for an index run or a server. */
export async function createEmbedder(_options: EmbedderOptions = {}): Promise<Embedder> {
  return createUseLiteEmbedder();
}
