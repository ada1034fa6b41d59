// Child process of the HTTP bench: the real server (startServer) on an ephemeral loopback port, its own
// process so load generator and server do not share an event loop. Talks to the parent over IPC:
// sends {url} once ready, answers "rss" with its resident set size, stops on "stop".
// Usage (forked): bench/serve-index.ts <db>
import { startServer } from "../src/server/serve.js";
import { collectGarbageSooner } from "../src/server/serving-heap.js";

// Tuned as `router serve` tunes its process.
collectGarbageSooner();
const server = await startServer({ db: process.argv[2]!, host: "127.0.0.1", port: 0, reloadIntervalMs: 0 });
await server.ready;
if (server.slot.error) throw server.slot.error;
process.send!({ url: server.url });
process.on("message", (message) => {
  if (message === "rss") process.send!({ rssMb: process.memoryUsage().rss / 1024 / 1024 });
  if (message === "stop") void server.close().then(() => process.exit(0));
});
