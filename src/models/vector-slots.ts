import { instantiateKernel, PAGE_BYTES, type RoutingKernel } from "./routing-kernel.js";

/**
 * Fixed-size vector slots in WebAssembly memory and a SIMD dot product of the query with any of them (about 10x a
 * plain JS loop on 512-d vectors, in a micro-benchmark on this project's machine). Slot 0 holds the query; the others
 * are for the caller to fill. The memory only grows.
 */
export class VectorSlots {
  readonly dimension: number;
  private readonly memory = new WebAssembly.Memory({ initial: 1 });
  private readonly kernel: RoutingKernel;
  /** Floats per slot: the dimension zero-padded to whole SIMD lanes. */
  private readonly stride: number;
  private floats: Float32Array;

  constructor(dimension: number) {
    this.dimension = dimension;
    this.stride = Math.ceil(dimension / 4) * 4;
    this.kernel = instantiateKernel(this.memory);
    this.floats = new Float32Array(this.memory.buffer);
  }

  /** Grows the memory to hold at least `slots` slots (at least doubling it, so that filling it slot by slot grows it rarely). */
  reserve(slots: number): void {
    const bytes = slots * this.stride * 4;
    const current = this.memory.buffer.byteLength;
    if (bytes <= current) return;
    this.memory.grow(Math.max(Math.ceil((bytes - current) / PAGE_BYTES), current / PAGE_BYTES));
    // Growing replaces the memory's buffer: views of the old one are detached.
    this.floats = new Float32Array(this.memory.buffer);
  }

  /**
   * Slots `first` to `first + count - 1` as one array of `count` vectors end to end, to fill in place; undefined when
   * the dimension is padded (slots are not contiguous vectors then). Valid until the memory grows again.
   */
  rows(first: number, count: number): Float32Array | undefined {
    if (this.stride !== this.dimension) return undefined;
    this.reserve(first + count);
    return new Float32Array(this.memory.buffer, first * this.stride * 4, count * this.dimension);
  }

  /** Copies a vector into slot `slot` (1 and up). */
  write(slot: number, vector: Float32Array): void {
    this.floats.set(vector.subarray(0, this.dimension), slot * this.stride);
  }

  /** Makes `vector` the query that `similarity` compares with. */
  setQuery(vector: Float32Array): void {
    this.write(0, vector);
  }

  /** Dot product of the query with the vector in slot `slot`. */
  similarity(slot: number): number {
    return this.kernel.dot(0, slot * this.stride * 4, this.stride / 4);
  }
}
