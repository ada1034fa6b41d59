import { createHash } from "node:crypto";
import type { ExpansionSubject } from "./expansion-subject.js";
import { completedVersion } from "./heuristic-source.js";
import { heuristicManifest } from "./heuristic-expander.js";
import type { ManifestWriter } from "./manifest-source.js";
import { completeManifest, type PartialManifest } from "./manifest.js";

/** A manifest brought in by `router expand --import`: from a batch API, another LLM or a person. */
export interface ImportedManifest {
  manifest: PartialManifest;
  /** The start of the content hash the request was made for, when the line says (batch custom_id). */
  contentHashPrefix?: string;
  /** Where it came from, for messages: "responses.jsonl line 3". */
  origin: string;
}

/** Imported manifests by skill name (or id); one made for other content than the skill's now is refused with a notice. */
export function importSource(imports: Map<string, ImportedManifest>, notice: (message: string) => void): ManifestWriter {
  const importFor = (subject: ExpansionSubject) => imports.get(subject.name) ?? imports.get(subject.id);
  return {
    name: "import",
    claim(subject) {
      const imported = importFor(subject);
      if (!imported) return undefined;
      if (imported.contentHashPrefix !== undefined && !subject.contentHash.startsWith(imported.contentHashPrefix)) {
        notice(`skill "${subject.name}" changed since its request was exported (${imported.origin}); that manifest was not imported: export and run the request again`);
        return undefined;
      }
      return { version: completedVersion(`import:${createHash("sha256").update(JSON.stringify(imported.manifest)).digest("hex").slice(0, 16)}`) };
    },
    write: async (subject) => ({ manifest: completeManifest(importFor(subject)!.manifest, heuristicManifest(subject)) }),
  };
}
