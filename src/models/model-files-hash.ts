import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

/** sha256 over a model's files, in the order given: the version of the model files an index records it was embedded with. */
export function hashModelFiles(folder: string, files: string[]): string {
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(`${file}\u0000`);
    hash.update(readFileSync(path.join(folder, file)));
  }
  return hash.digest("hex");
}
