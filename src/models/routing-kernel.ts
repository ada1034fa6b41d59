import { ROUTING_KERNEL_WASM } from "./routing-kernel-wasm.js";

const kernelModule = new WebAssembly.Module(ROUTING_KERNEL_WASM);
/** The unit in which WebAssembly memory is sized and grown. */
export const PAGE_BYTES = 65_536;

/** The WebAssembly loops of routing (routing-kernel.wat), over one memory; every offset is in bytes. */
export interface RoutingKernel {
  /** Dot product of `lanes` groups of four floats at `a` and `b` (16-byte aligned). */
  dot(a: number, b: number, lanes: number): number;
  /** Bits in which each of `rows` codes of `words` 64-bit words at `codes` differs from `query`, as 16-bit counts at `out`. */
  hamming(codes: number, query: number, rows: number, words: number, out: number): void;
}

export function instantiateKernel(memory: WebAssembly.Memory): RoutingKernel {
  const exports = new WebAssembly.Instance(kernelModule, { env: { memory } }).exports;
  return { dot: exports.dot as RoutingKernel["dot"], hamming: exports.hamming as RoutingKernel["hamming"] };
}
