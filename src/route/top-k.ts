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

/** The k largest values, largest first: the head of a descending sort. */
export function largestValues(values: number[], k: number): number[] {
  const largest = new LargestK(k);
  for (const value of values) largest.offer(value);
  return largest.values;
}

/** The k largest values offered, largest first (ties: the one offered first), each with a tag saying whose it is. */
export class LargestK {
  readonly values: number[] = [];
  readonly tags: number[] = [];
  constructor(private readonly k: number) {}

  /** Keeps `value` if it is among the k largest so far (true when kept); runs per candidate, so it shifts rather than splices. */
  offer(value: number, tag = 0): boolean {
    const { values, tags, k } = this;
    if (k <= 0 || (values.length === k && !(value > values[k - 1]!))) return false;
    // Shift the smaller kept ones down one place (the last falls off when k are kept), then write this one.
    let at = Math.min(values.length, k - 1);
    while (at > 0 && values[at - 1]! < value) {
      values[at] = values[at - 1]!;
      tags[at] = tags[at - 1]!;
      at--;
    }
    values[at] = value;
    tags[at] = tag;
    return true;
  }
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
