// Child process of test/models/model-worker-close.test.ts: closes embedder workers while a batch is inside onnxruntime,
// a few times over, and prints how the calls ended. A process that aborts never prints.
import { startEmbedderWorker } from "../../src/models/model-worker-client.js";

const [rounds, size] = [Number(process.argv[2] ?? 3), Number(process.argv[3] ?? 120)];
const texts = Array.from({ length: size }, (_, index) => `request ${index}: ${"read the deployment logs and restart the failing pods ".repeat(6)}`);
const codes: string[] = [];
for (let round = 0; round < rounds; round++) {
  const embedder = await startEmbedderWorker({ embedder: "offline" });
  const batch = embedder.embed(texts).then(
    () => "embedded",
    (error: { code?: string }) => error.code ?? "error",
  );
  await new Promise((resolve) => setTimeout(resolve, 30));
  await embedder.close!();
  codes.push(await batch);
}
console.log(JSON.stringify(codes));
