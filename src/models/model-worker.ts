import { parentPort, workerData } from "node:worker_threads";
import { isRouterError } from "../errors.js";
import { createEmbedder } from "./create-embedder.js";
import { loadRerankerInProcess } from "./create-reranker.js";
import type { SerialisedError, WorkerClose, WorkerJob, WorkerReply, WorkerRequest } from "./model-worker-protocol.js";

// The worker entry: loads one model, then answers requests one at a time, off the server's event loop.
const job = workerData as WorkerJob;
const port = parentPort!;
const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
// Calls still running: a close waits for them, since onnxruntime calling back into a stopped thread aborts the process.
const running = new Set<Promise<void>>();

try {
  if (job.role === "embedder") {
    const embedder = await createEmbedder(job.options);
    port.on("message", (request: WorkerRequest | WorkerClose) =>
      serve(request, async (request) => {
        const vectors = await embedder.embed(request.op === "embed" ? request.texts : []);
        const flat = new Float32Array(vectors.length * embedder.dimension);
        vectors.forEach((vector, row) => flat.set(vector, row * embedder.dimension));
        reply({ type: "result", request: request.id, vectors: flat }, [flat.buffer]);
      }),
    );
    reply({ type: "ready", id: embedder.id, dimension: embedder.dimension });
  } else {
    const load = await loadRerankerInProcess(job.options);
    if (load.status === "unavailable") {
      reply({ type: "unavailable", reason: load.reason });
    } else {
      port.on("message", (request: WorkerRequest | WorkerClose) =>
        serve(request, async (request) => {
          const scores = request.op === "score" ? await load.reranker.score(request.query, request.passages) : [];
          reply({ type: "result", request: request.id, scores });
        }),
      );
      reply({ type: "ready", id: load.reranker.id });
    }
  }
} catch (error) {
  reply({ type: "failed", error: serialise(error) });
}

/** Runs one call and replies with its result or error; a close stops the thread once the running calls are done. */
async function serve(request: WorkerRequest | WorkerClose, work: (request: WorkerRequest) => Promise<void>): Promise<void> {
  if (request.op === "close") {
    await Promise.all(running);
    process.exit(0);
  }
  const call = work(request).catch((error: unknown) => reply({ type: "error", request: request.id, error: serialise(error) }));
  running.add(call);
  await call;
  running.delete(call);
}

function serialise(error: unknown): SerialisedError {
  if (isRouterError(error)) return { code: error.code, message: error.message, details: error.details };
  return { message: error instanceof Error ? error.message : String(error) };
}
