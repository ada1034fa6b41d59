import { HEURISTIC_VERSION, heuristicManifest } from "./heuristic-expander.js";
import type { ManifestWriter } from "./manifest-source.js";

/** The last source of every chain: claims every skill, deterministic and offline. */
export function heuristicSource(): ManifestWriter {
  return {
    name: "heuristic",
    claim: () => ({ version: `heuristic:${HEURISTIC_VERSION}` }),
    write: async (subject) => ({ manifest: heuristicManifest(subject) }),
  };
}

/** A partial source's version: the fields it leaves out come from the heuristic, so its version is part of theirs. */
export function completedVersion(own: string): string {
  return `${own}+heuristic:${HEURISTIC_VERSION}`;
}
