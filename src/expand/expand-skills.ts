import type { ExpansionSubject } from "./expansion-subject.js";
import { heuristicManifest } from "./heuristic-expander.js";
import type { StoredManifest } from "./manifest.js";

export interface ExpandOptions {
  onProgress?: (done: number, total: number) => void;
}

/**
 * A manifest for each skill, by skill id. An eval-set skill's example queries serve as its queries;
 * everything else comes from the heuristic expander.
 */
export async function expandManifests(subjects: ExpansionSubject[], options: ExpandOptions = {}): Promise<Map<string, StoredManifest>> {
  const manifests = new Map<string, StoredManifest>();
  subjects.forEach((subject, index) => {
    const heuristic = heuristicManifest(subject);
    const examples = subject.metadata.exampleQueries;
    manifests.set(subject.id, examples && examples.length > 0 ? { source: "examples", manifest: { ...heuristic, queries: examples } } : { source: "heuristic", manifest: heuristic });
    options.onProgress?.(index + 1, subjects.length);
  });
  return manifests;
}
