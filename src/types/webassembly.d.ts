// The part of the WebAssembly JS API that the routing kernel uses (src/models/routing-kernel.ts, vector-slots.ts,
// hamming-distances.ts): Node has it, but its types come with the DOM library, which this Node-only project does not load.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
  class Instance {
    constructor(module: Module, imports: Record<string, Record<string, Memory | ((...args: number[]) => number)>>);
    readonly exports: Record<string, unknown>;
  }
}
