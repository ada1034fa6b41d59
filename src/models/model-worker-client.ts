import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { createError, RouterError, type ErrorCode } from "../errors.js";
import type { EmbedderOptions } from "./create-embedder.js";
import type { Embedder, RerankerLoad, RerankerOptions } from "./embedder.js";
import { modelSettings } from "./model-settings.js";
import type { SerialisedError, WorkerCall, WorkerClose, WorkerJob, WorkerReply } from "./model-worker-protocol.js";
import { disableOnnxTelemetry } from "./onnx-telemetry.js";

type Ready = Extract<WorkerReply, { type: "ready" }>;
type Result = Extract<WorkerReply, { type: "result" }>;

/** An embedder whose inference runs in a worker thread; `embed` calls queue in the worker, in order. */
export async function startEmbedderWorker(options: EmbedderOptions = {}): Promise<Embedder> {
  const worker = new ModelWorker({ role: "embedder", options: { ...options, ...modelSettings(options) } });
  const ready = await worker.started();
  if (ready.type !== "ready") throw createError("MODEL_LOAD_FAILED", ready.reason);
  const dimension = ready.dimension!;
  return {
    id: ready.id,
    dimension,
    async embed(texts) {
      const { vectors } = await worker.request({ op: "embed", texts });
      return texts.map((_, row) => vectors!.slice(row * dimension, (row + 1) * dimension));
    },
    close: () => worker.close(),
  };
}

/** The reranker in a worker thread, or why it is unavailable. */
export async function startRerankerWorker(options: RerankerOptions = {}): Promise<RerankerLoad> {
  const worker = new ModelWorker({ role: "reranker", options: modelSettings(options) });
  let ready: Ready | { type: "unavailable"; reason: string };
  try {
    ready = await worker.started();
  } catch (error) {
    return { status: "unavailable", reason: error instanceof Error ? error.message : String(error) };
  }
  if (ready.type !== "ready") {
    await worker.close();
    return { status: "unavailable", reason: ready.reason };
  }
  return {
    status: "ready",
    reranker: {
      id: ready.id,
      async score(query, passages) {
        return passages.length === 0 ? [] : (await worker.request({ op: "score", query, passages })).scores!;
      },
      close: () => worker.close(),
    },
  };
}

// How long a closing worker may take to finish the call it is running before it is terminated anyway.
const CLOSE_GRACE_MS = 10_000;

class ModelWorker {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  private readonly pending = new Map<number, { resolve: (reply: Result) => void; reject: (error: Error) => void }>();
  private readonly ready: Promise<Ready | { type: "unavailable"; reason: string }>;
  private nextId = 0;
  private closed = false;

  constructor(job: WorkerJob) {
    this.worker = spawnWorker(job);
    this.exited = new Promise((resolve) => this.worker.once("exit", () => resolve()));
    this.ready = new Promise((resolve, reject) => {
      const onStart = (reply: WorkerReply) => {
        if (reply.type === "ready" || reply.type === "unavailable") resolve(reply);
        else if (reply.type === "failed") {
          reject(revive(reply.error, "MODEL_LOAD_FAILED"));
          // A worker that could not load has nothing to serve; left running it would keep the process alive.
          void this.close();
        } else return;
        this.worker.off("message", onStart);
        this.worker.on("message", (message: WorkerReply) => this.settle(message));
        // An idle worker does not keep the process alive; a pending request does (see request()).
        this.worker.unref();
      };
      this.worker.on("message", onStart);
      this.worker.once("error", reject);
      this.worker.once("exit", (code) => reject(createError("MODEL_LOAD_FAILED", `model worker exited with code ${code} while loading`)));
    });
    this.worker.on("error", (error) => this.failAll(createError("MODEL_FAILED", `model worker crashed: ${error.message}`)));
    this.worker.on("exit", (code) => this.failAll(createError("MODEL_FAILED", this.closed ? "model worker closed" : `model worker exited with code ${code}`)));
  }

  started(): Promise<Ready | { type: "unavailable"; reason: string }> {
    return this.ready;
  }

  request(call: WorkerCall): Promise<Result> {
    if (this.closed) return Promise.reject(createError("MODEL_FAILED", "model worker closed"));
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...call, id });
    });
  }

  /**
   * Rejects every pending call, then lets the worker finish what it is running and stop by itself: terminating a
   * thread inside an onnxruntime call can abort the whole process ("terminate called after throwing Napi::Error").
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.failAll(createError("MODEL_FAILED", "model worker closed"));
    this.worker.ref();
    this.worker.postMessage({ op: "close" } satisfies WorkerClose);
    const stuck = setTimeout(() => void this.worker.terminate(), CLOSE_GRACE_MS);
    await this.exited;
    clearTimeout(stuck);
  }

  private settle(message: WorkerReply): void {
    if (message.type !== "result" && message.type !== "error") return;
    const waiter = this.pending.get(message.request);
    if (!waiter) return;
    this.pending.delete(message.request);
    if (this.pending.size === 0) this.worker.unref();
    if (message.type === "result") waiter.resolve(message);
    else waiter.reject(revive(message.error, "MODEL_FAILED"));
  }

  private failAll(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }
}

/**
 * Built code runs the worker's .js file. Sources run as TypeScript (vitest, tsx) have no .js file: there the
 * worker registers tsx's ESM loader first, then imports the .ts entry.
 */
function spawnWorker(job: WorkerJob): Worker {
  // Here, on the main thread: a worker cannot set onnxruntime's switch for the process.
  disableOnnxTelemetry();
  if (fileURLToPath(import.meta.url).endsWith(".js")) return new Worker(new URL("./model-worker.js", import.meta.url), { workerData: job });
  const entry = new URL("./model-worker.ts", import.meta.url).href;
  return new Worker(`import(${JSON.stringify(tsxEsmApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`, { eval: true, workerData: job });
}

/** tsx's ESM API module, found through its package exports (require.resolve would give the CommonJS one). */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("tsx/package.json");
  const { exports } = require(manifest) as { exports: Record<string, { import: { default: string } }> };
  return pathToFileURL(path.join(path.dirname(manifest), exports["./esm/api"]!.import.default)).href;
}

function revive(error: SerialisedError, fallback: ErrorCode): Error {
  return new RouterError(error.code ?? fallback, error.message, error.details);
}
