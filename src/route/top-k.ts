/** Indices of the k largest scores, best first; `include` limits which indices may be chosen. */
export function topK(scores: Float32Array | number[], k: number, include?: (index: number) => boolean): number[] {
  // A bounded min-heap keeps this O(n log k): it runs over every skill of the index on each query.
  const heap: number[] = [];
  const less = (a: number, b: number) => scores[a]! < scores[b]!;
  for (let index = 0; index < scores.length; index++) {
    if (include && !include(index)) continue;
    if (heap.length < k) {
      heap.push(index);
      siftUp(heap, heap.length - 1, less);
    } else if (k > 0 && less(heap[0]!, index)) {
      heap[0] = index;
      siftDown(heap, 0, less);
    }
  }
  return heap.sort((a, b) => scores[b]! - scores[a]! || a - b);
}

function siftUp(heap: number[], at: number, less: (a: number, b: number) => boolean): void {
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (!less(heap[at]!, heap[parent]!)) return;
    [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
    at = parent;
  }
}

function siftDown(heap: number[], at: number, less: (a: number, b: number) => boolean): void {
  for (;;) {
    const left = 2 * at + 1;
    const right = left + 1;
    let smallest = at;
    if (left < heap.length && less(heap[left]!, heap[smallest]!)) smallest = left;
    if (right < heap.length && less(heap[right]!, heap[smallest]!)) smallest = right;
    if (smallest === at) return;
    [heap[at], heap[smallest]] = [heap[smallest]!, heap[at]!];
    at = smallest;
  }
}
