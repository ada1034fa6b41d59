// How the Docker image runs `router serve` (its CMD and ENV): the benches that measure a server's memory and
// throughput run theirs the same way, and test/ops/dockerfile.test.ts checks the Dockerfile still says so.

/** Node flags before the script: a young generation of at most 8 MB per semi-space instead of 16 (set at start-up only). */
export const SHIPPED_NODE_FLAGS = ["--max-semi-space-size=8"];

/** Environment: at most two glibc malloc arenas, however many threads (the embedding worker, onnxruntime, libuv) allocate. */
export const SHIPPED_ENV = { MALLOC_ARENA_MAX: "2" };

/** The two, as the benches' result sections name them. */
export function shippedProcess(): string {
  return [`\`node ${SHIPPED_NODE_FLAGS.join(" ")}\``, ...Object.entries(SHIPPED_ENV).map(([name, value]) => `\`${name}=${value}\``)].join(", ");
}
