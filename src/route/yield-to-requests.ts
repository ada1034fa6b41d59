// A load on the event loop hands it back this often, so requests keep being answered while a new index version loads.
const SLICE_MS = 10;

/** A function to await in long loops: it yields to the event loop once SLICE_MS have passed since the last yield, else returns at once. */
export function yieldToRequests(sliceMs = SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return undefined;
    return new Promise((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}
