import { createHash } from "node:crypto";
import { completedVersion } from "./heuristic-source.js";
import { heuristicManifest } from "./heuristic-expander.js";
import type { ManifestWriter } from "./manifest-source.js";
import { completeManifest, describeIssues, partialManifestSchema, tidyManifest } from "./manifest.js";

/** A hand-written `router-manifest.yaml` beside the skill, completed from the heuristic; a broken one is reported once and passed over. */
export function fileSource(notice: (message: string) => void): ManifestWriter {
  return {
    name: "file",
    claim(subject) {
      const file = subject.metadata.manifestFile;
      if (!file) return undefined;
      const parsed = partialManifestSchema.safeParse(file.content);
      if (!parsed.success) {
        notice(`skill "${subject.name}": ${file.file} does not fit the manifest schema (${describeIssues(parsed.error)}); using the generated manifest`);
        return undefined;
      }
      return { version: completedVersion(`file:${createHash("sha256").update(JSON.stringify(parsed.data)).digest("hex").slice(0, 16)}`) };
    },
    async write(subject) {
      const parsed = partialManifestSchema.parse(subject.metadata.manifestFile!.content);
      return { manifest: completeManifest(tidyManifest(parsed), heuristicManifest(subject)) };
    },
  };
}
