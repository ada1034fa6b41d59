import { createHash } from "node:crypto";
import { completedVersion } from "./heuristic-source.js";
import { heuristicManifest } from "./heuristic-expander.js";
import type { ManifestWriter } from "./manifest-source.js";

/** An eval set's example queries (`skills[].queries`) as the manifest's queries; the other fields from the heuristic. */
export function examplesSource(): ManifestWriter {
  return {
    name: "examples",
    claim(subject) {
      const examples = subject.metadata.exampleQueries;
      if (!examples || examples.length === 0) return undefined;
      return { version: completedVersion(`examples:${createHash("sha256").update(JSON.stringify(examples)).digest("hex").slice(0, 16)}`) };
    },
    write: async (subject) => ({ manifest: { ...heuristicManifest(subject), queries: subject.metadata.exampleQueries! } }),
  };
}
