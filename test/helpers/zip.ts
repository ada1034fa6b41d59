import { once } from "node:events";
import { createWriteStream } from "node:fs";
import yazl from "yazl";

/** Writes a real zip archive with yazl; names with `..` are written through a same-length placeholder. */
export async function writeZip(file: string, entries: Record<string, string>, options: { symlinks?: Record<string, string> } = {}): Promise<void> {
  const zip = new yazl.ZipFile();
  const escapes = new Map<string, string>();
  for (const [name, content] of Object.entries(entries)) {
    // yazl refuses unsafe names, so write a placeholder of the same length and patch the bytes after.
    const safe = name.includes("..") ? name.replace(/\.\./g, "xx") : name;
    if (safe !== name) escapes.set(safe, name);
    zip.addBuffer(Buffer.from(content), safe);
  }
  for (const [name, target] of Object.entries(options.symlinks ?? {})) {
    zip.addBuffer(Buffer.from(target), name, { mode: 0o120777 });
  }
  zip.end();
  const chunks: Buffer[] = [];
  zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
  await once(zip.outputStream, "end");
  let bytes = Buffer.concat(chunks);
  for (const [safe, unsafe] of escapes) bytes = Buffer.from(bytes.toString("latin1").split(safe).join(unsafe), "latin1");
  const out = createWriteStream(file);
  out.end(bytes);
  await once(out, "finish");
}
