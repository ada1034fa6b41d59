const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decodes UTF-8 text, or returns why the bytes are not a text file. */
export function decodeText(bytes: Uint8Array): { text: string } | { reason: string } {
  if (bytes.subarray(0, 8192).includes(0)) return { reason: "binary file (contains NUL bytes), expected UTF-8 text" };
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { reason: "not valid UTF-8 text" };
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
