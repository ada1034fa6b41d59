import { Transform, type TransformCallback } from "node:stream";

/**
 * Passes stdin through, but at most `maxBytes` of any one line: the rest of an over-long line is dropped, so what
 * reaches the MCP transport is a cut-off line that it answers with a JSON-RPC parse error, and the next line is read
 * as usual. (Unbounded, the SDK buffers up to 10 MiB of one line, then closes the transport and the server stops.)
 */
export function boundedLines(maxBytes: number): Transform {
  let lineBytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      const kept: Buffer[] = [];
      let start = 0;
      while (start < chunk.length) {
        const newline = chunk.indexOf(0x0a, start);
        const end = newline === -1 ? chunk.length : newline;
        const room = Math.max(0, maxBytes - lineBytes);
        kept.push(chunk.subarray(start, start + Math.min(room, end - start)));
        lineBytes += end - start;
        if (newline === -1) break;
        kept.push(chunk.subarray(newline, newline + 1));
        lineBytes = 0;
        start = newline + 1;
      }
      callback(null, Buffer.concat(kept));
    },
  });
}
