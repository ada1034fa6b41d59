/** Indices of the k largest scores, best first (ties: lower index first); `include` limits which indices may be chosen. */
export function topK(scores: Float32Array | number[], k: number, include?: (index: number) => boolean): number[] {
  // A bounded min-heap keeps this O(n log k): it runs over every skill of the index on each query.
  const heap: number[] = [];
  const worse = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  for (let index = 0; index < scores.length; index++) {
    // Once k are kept, most scores fall below the worst of them: passed over without a call.
    if (heap.length === k && scores[index]! < scores[heap[0]!]!) continue;
    if (include && !include(index)) continue;
    push(heap, index, k, worse);
  }
  return heap.sort((a, b) => scores[b]! - scores[a]! || a - b);
}

/** Positions of the k best of parallel `keys` and `scores`, best first (ties: lower key first); `include` is asked of keys. */
export function topByKey(keys: Int32Array, scores: Float64Array, k: number, include?: (key: number) => boolean): number[] {
  const heap: number[] = [];
  const worse = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && keys[a]! > keys[b]!);
  for (let at = 0; at < keys.length; at++) {
    // Once k are kept, most scores fall below the worst of them: passed over without a call.
    if (heap.length === k && scores[at]! < scores[heap[0]!]!) continue;
    if (!include || include(keys[at]!)) push(heap, at, k, worse);
  }
  return heap.sort((a, b) => scores[b]! - scores[a]! || keys[a]! - keys[b]!);
}

/** The k largest values, largest first: the head of a descending sort, by insertion into the k kept (it runs per candidate). */
export function largestValues(values: number[], k: number): number[] {
  const kept: number[] = [];
  if (k <= 0) return kept;
  for (const value of values) {
    if (kept.length === k && !(value > kept[k - 1]!)) continue;
    // Shift the smaller kept values down one place (the last falls off when k are kept), then write the new one.
    let at = Math.min(kept.length, k - 1);
    while (at > 0 && kept[at - 1]! < value) {
      kept[at] = kept[at - 1]!;
      at--;
    }
    kept[at] = value;
  }
  return kept;
}

/** Adds an item to a heap of at most k, whose root is the worst kept. */
function push<T>(heap: T[], item: T, k: number, worse: (a: T, b: T) => boolean): void {
  if (heap.length < k) {
    heap.push(item);
    siftUp(heap, heap.length - 1, worse);
  } else if (k > 0 && worse(heap[0]!, item)) {
    heap[0] = item;
    siftDown(heap, 0, worse);
  }
}

function siftUp<T>(heap: T[], at: number, worse: (a: T, b: T) => boolean): void {
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (!worse(heap[at]!, heap[parent]!)) return;
    [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
    at = parent;
  }
}

function siftDown<T>(heap: T[], at: number, worse: (a: T, b: T) => boolean): void {
  for (;;) {
    const left = 2 * at + 1;
    const right = left + 1;
    let smallest = at;
    if (left < heap.length && worse(heap[left]!, heap[smallest]!)) smallest = left;
    if (right < heap.length && worse(heap[right]!, heap[smallest]!)) smallest = right;
    if (smallest === at) return;
    [heap[at], heap[smallest]] = [heap[smallest]!, heap[at]!];
    at = smallest;
  }
}
