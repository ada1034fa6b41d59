import { instantiateKernel, PAGE_BYTES, type RoutingKernel } from "./routing-kernel.js";

/**
 * Bit codes (rows of 32-bit words) copied into WebAssembly memory, whose Hamming distances to a query code are
 * counted 64 bits at a time (routing-kernel.wat): the dense coarse stage over every skill of a large index.
 */
export class HammingDistances {
  private readonly kernel: RoutingKernel;
  private readonly rows: number;
  /** 32-bit words of a code as given, and 64-bit words of one as stored (zero-padded). */
  private readonly words: number;
  private readonly stride: number;
  private readonly query: Uint32Array;
  private readonly codesOffset: number;
  private readonly out: Uint16Array;

  constructor(codes: Uint32Array, rows: number, words: number) {
    this.rows = rows;
    this.words = words;
    this.stride = Math.ceil(words / 2);
    const codeBytes = this.stride * 8;
    this.codesOffset = codeBytes;
    const outOffset = codeBytes * (rows + 1);
    const memory = new WebAssembly.Memory({ initial: Math.ceil((outOffset + rows * 2) / PAGE_BYTES) });
    this.kernel = instantiateKernel(memory);
    const words32 = new Uint32Array(memory.buffer);
    // Codes of a whole number of 64-bit words go over in one copy; the others are padded row by row.
    if (words % 2 === 0) words32.set(codes.subarray(0, rows * words), this.codesOffset / 4);
    else for (let row = 0; row < rows; row++) words32.set(codes.subarray(row * words, (row + 1) * words), (this.codesOffset + row * codeBytes) / 4);
    this.query = words32.subarray(0, this.stride * 2);
    this.out = new Uint16Array(memory.buffer, outOffset, rows);
  }

  /** The number of bits in which each row differs from `query`, by row; valid until the next call. */
  distances(query: Uint32Array): Uint16Array {
    this.query.set(query.subarray(0, this.words));
    this.kernel.hamming(this.codesOffset, 0, this.rows, this.stride, this.out.byteOffset);
    return this.out;
  }
}
