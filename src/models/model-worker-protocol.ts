import type { ErrorCode } from "../errors.js";
import type { EmbedderOptions } from "./create-embedder.js";
import type { ModelSettings } from "./model-settings.js";

/** What a model worker loads: an embedder, or the reranker. Options arrive resolved by the parent thread. */
export type WorkerJob = { role: "embedder"; options: EmbedderOptions & ModelSettings } | { role: "reranker"; options: ModelSettings };

export type WorkerCall = { op: "embed"; texts: string[] } | { op: "score"; query: string; passages: string[] };

export type WorkerRequest = WorkerCall & { id: number };

/** Asks the worker to finish the calls it is running and stop: terminating it mid-inference can abort the process. */
export type WorkerClose = { op: "close" };

export interface SerialisedError {
  code?: ErrorCode;
  message: string;
  details?: Record<string, unknown> | undefined;
}

export type WorkerReply =
  | { type: "ready"; id: string; dimension?: number }
  | { type: "unavailable"; reason: string }
  | { type: "failed"; error: SerialisedError }
  /** `vectors` is one row-major matrix (rows = texts), sent as a transferred buffer. */
  | { type: "result"; request: number; vectors?: Float32Array; scores?: number[] }
  | { type: "error"; request: number; error: SerialisedError };
