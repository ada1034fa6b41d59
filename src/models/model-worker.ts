import { parentPort, workerData } from "node:worker_threads";
import { isRouterError } from "../errors.js";
import { createEmbedder } from "./create-embedder.js";
import { loadRerankerInProcess } from "./create-reranker.js";
import type { SerialisedError, WorkerJob, WorkerReply, WorkerRequest } from "./model-worker-protocol.js";

// The worker entry: loads one model, then answers requests one at a time, off the server's event loop.
const job = workerData as WorkerJob;
const port = parentPort!;
const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

try {
  if (job.role === "embedder") {
    const embedder = await createEmbedder(job.options);
    port.on("message", (request: WorkerRequest) =>
      serve(request, async () => {
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
      port.on("message", (request: WorkerRequest) =>
        serve(request, async () => {
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

async function serve(request: WorkerRequest, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    reply({ type: "error", request: request.id, error: serialise(error) });
  }
}

function serialise(error: unknown): SerialisedError {
  if (isRouterError(error)) return { code: error.code, message: error.message, details: error.details };
  return { message: error instanceof Error ? error.message : String(error) };
}
