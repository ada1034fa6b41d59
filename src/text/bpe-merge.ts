/**
 * Byte-pair merging with a heap: the same merges, in the same order, as tiktoken's reference loop (always the
 * lowest rank, leftmost first), in O(n log n) instead of the O(n²) rescans js-tiktoken does on every merge.
 * A piece is its UTF-8 bytes as a latin1 string (one char per byte); `ranks` maps such strings to ranks.
 * `longestToken` is the length of the longest rank key: a longer pair cannot be a token, so it is not looked up.
 * Returns how many tokens the piece becomes.
 */
export function bytePairCount(piece: string, ranks: Map<string, number>, longestToken: number): number {
  const length = piece.length;
  if (length <= 1 || ranks.has(piece)) return 1;
  // Parts are a linked list over byte offsets: a part starts at i and ends where the next one starts.
  const { next, previous, alive, heap } = workspace(length);
  for (let i = 0; i < length; i++) {
    next[i] = i + 1;
    previous[i] = i - 1;
    alive[i] = 1;
  }
  const pushPair = (start: number): void => {
    const middle = next[start]!;
    if (middle >= length) return;
    const end = next[middle]!;
    if (end - start > longestToken) return;
    const rank = ranks.get(piece.slice(start, end));
    if (rank !== undefined) heap.push(rank, start, end);
  };
  for (let i = 0; i < length - 1; i++) pushPair(i);
  let parts = length;
  for (let pair = heap.pop(); pair !== undefined; pair = heap.pop()) {
    const [start, end] = pair;
    // A stale entry: one of its two parts has merged since it was pushed (ends only grow, starts only vanish).
    if (!alive[start] || next[next[start]!] !== end) continue;
    const absorbed = next[start]!;
    alive[absorbed] = 0;
    next[start] = end;
    if (end < length) previous[end] = start;
    parts--;
    if (previous[start]! >= 0) pushPair(previous[start]!);
    pushPair(start);
  }
  return parts;
}

interface Workspace {
  next: Int32Array;
  previous: Int32Array;
  alive: Uint8Array;
  heap: PairHeap;
}

// Text splits into hundreds of thousands of short pieces: fresh arrays for each one cost more than merging it
// (1 MiB of "```\n" spent most of its 1.7 s allocating). Short pieces share one workspace; a long piece gets its
// own, so a megabyte run's arrays are not kept alive after it.
const SHARED_WORKSPACE_BYTES = 4096;
let shared: Workspace | undefined;

function workspace(length: number): Workspace {
  if (length > SHARED_WORKSPACE_BYTES) return newWorkspace(length);
  shared ??= newWorkspace(SHARED_WORKSPACE_BYTES);
  shared.heap.clear();
  return shared;
}

function newWorkspace(length: number): Workspace {
  return { next: new Int32Array(length), previous: new Int32Array(length), alive: new Uint8Array(length), heap: new PairHeap(length) };
}

/**
 * A binary min-heap of pairs keyed by rank then start (tiktoken's lowest-rank, leftmost rule), in typed arrays:
 * a megabyte piece pushes millions of pairs, and one object per pair costs more than the merging.
 */
class PairHeap {
  // rank * 2^32 + start: one exact float orders by rank, then by start (ranks < 2^21, starts < 2^32).
  private keys: Float64Array;
  private ends: Int32Array;
  private size = 0;

  /** `capacity`: pairs it holds before it grows (a piece of n bytes starts with at most n - 1). */
  constructor(capacity: number) {
    this.keys = new Float64Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  push(rank: number, start: number, end: number): void {
    if (this.size === this.keys.length) this.grow();
    const key = rank * 2 ** 32 + start;
    let child = this.size++;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (this.keys[parent]! <= key) break;
      this.keys[child] = this.keys[parent]!;
      this.ends[child] = this.ends[parent]!;
      child = parent;
    }
    this.keys[child] = key;
    this.ends[child] = end;
  }

  /** The lowest pair as [start, end], or undefined when the heap is empty. */
  pop(): [number, number] | undefined {
    if (this.size === 0) return undefined;
    const top: [number, number] = [this.keys[0]! % 2 ** 32, this.ends[0]!];
    const key = this.keys[--this.size]!;
    const end = this.ends[this.size]!;
    let parent = 0;
    for (;;) {
      let child = parent * 2 + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.keys[child + 1]! < this.keys[child]!) child++;
      if (this.keys[child]! >= key) break;
      this.keys[parent] = this.keys[child]!;
      this.ends[parent] = this.ends[child]!;
      parent = child;
    }
    this.keys[parent] = key;
    this.ends[parent] = end;
    return top;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    const ends = new Int32Array(this.ends.length * 2);
    ends.set(this.ends);
    this.keys = keys;
    this.ends = ends;
  }
}
