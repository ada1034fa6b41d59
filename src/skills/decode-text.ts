const utf8 = new TextDecoder("utf-8", { fatal: true });
// Windows editors save "Unicode" as UTF-16 with a byte order mark: such a file is text, not binary.
const UTF16_BOMS: [first: number, second: number, encoding: "utf-16le" | "utf-16be"][] = [
  [0xff, 0xfe, "utf-16le"],
  [0xfe, 0xff, "utf-16be"],
];
const SNIFFED_BYTES = 8192;

/** Decodes UTF-8 text, or UTF-16 text that starts with a byte order mark; else returns why the bytes are not a text file. */
export function decodeText(bytes: Uint8Array): { text: string } | { reason: string } {
  const utf16 = UTF16_BOMS.find(([first, second]) => bytes[0] === first && bytes[1] === second)?.[2];
  if (utf16) return decodeUtf16(bytes, utf16);
  const head = bytes.subarray(0, SNIFFED_BYTES);
  if (head.includes(0)) {
    return looksLikeUtf16(head) ? { reason: "UTF-16 text without a byte order mark; save it as UTF-8" } : { reason: "binary file (contains NUL bytes), expected UTF-8 text" };
  }
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { reason: "not valid UTF-8 text" };
  }
}

function decodeUtf16(bytes: Uint8Array, encoding: "utf-16le" | "utf-16be"): { text: string } | { reason: string } {
  const name = encoding === "utf-16le" ? "UTF-16 LE" : "UTF-16 BE";
  try {
    const text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
    return text.includes("\u0000") ? { reason: `binary file (${name} byte order mark, then NUL characters)` } : { text };
  } catch {
    return { reason: `not valid ${name} text (the file starts with its byte order mark)` };
  }
}

/** Mostly-ASCII text in UTF-16: nearly every other byte is NUL, on one side only. */
function looksLikeUtf16(head: Uint8Array): boolean {
  const nulsAt = [0, 0];
  for (let index = 0; index < head.length; index++) if (head[index] === 0) nulsAt[index % 2]!++;
  const pairs = Math.floor(head.length / 2);
  return pairs > 0 && Math.max(nulsAt[0]!, nulsAt[1]!) >= pairs * 0.9 && Math.min(nulsAt[0]!, nulsAt[1]!) === 0;
}

/** "1.09 MB": decimal units, `digits` significant figures. */
export function formatBytes(bytes: number, digits = 3): string {
  if (bytes < 1000) return `${bytes} B`;
  const [unit, scale] = bytes < 1e6 ? ["kB", 1e3] : bytes < 1e9 ? ["MB", 1e6] : ["GB", 1e9];
  return `${Number((bytes / scale).toPrecision(digits))} ${unit}`;
}

/** "1.09 MB, the limit is 1.05 MB": as many figures as it takes for a size over the limit never to read as the limit. */
export function sizeAgainstLimit(size: number, limit: number): string {
  for (let digits = 3; digits <= 10; digits++) {
    const [shown, allowed] = [formatBytes(size, digits), formatBytes(limit, digits)];
    if (shown !== allowed) return `${shown}, the limit is ${allowed}`;
  }
  return `${size} bytes, the limit is ${limit} bytes`;
}
