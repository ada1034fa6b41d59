import type { ModelSettings } from "./model-settings.js";

/** Turns texts into L2-normalised vectors; every implementation passes test/models/embedder-conformance.ts. */
export interface Embedder {
  /** Names the model and its settings; vectors from two different ids never mix in one index. */
  readonly id: string;
  readonly dimension: number;
  /** Version of our code around the model (tokenising, truncation, pooling); bumped when a change alters vectors. */
  readonly version?: string;
  /** sha256 of the model files loaded, when known; an index re-embeds when this or `version` changes. */
  readonly modelFiles?: string;
  /** One unit-length vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** Scores how well each passage answers a query; every implementation passes the same shared suite. */
export interface Reranker {
  readonly id: string;
  /** Relevance in [0, 1] per passage (the sigmoid of a cross-encoder logit), in order. */
  score(query: string, passages: string[]): Promise<number[]>;
  close(): Promise<void>;
}

export type RerankerOptions = Partial<Pick<ModelSettings, "modelsDir" | "dtype" | "threads">>;

/** A reranker, or why there is none (missing files and the command to get them, or why they failed to load). */
export type RerankerLoad = { status: "ready"; reranker: Reranker } | { status: "unavailable"; reason: string };
