import { createHash } from "node:crypto";
import { skillTextHash } from "../store/skill-text.js";
import type { ExpansionSubject } from "./expansion-subject.js";
import { completedVersion } from "./heuristic-source.js";
import { heuristicManifest } from "./heuristic-expander.js";
import type { ManifestWriter } from "./manifest-source.js";
import { completeManifest, type PartialManifest } from "./manifest.js";

/** A manifest brought in by `router expand --import`: from a batch API, another LLM or a person. */
export interface ImportedManifest {
  manifest: PartialManifest;
  /** The start of the hash of the skill text the request was made for, when the line says (batch custom_id); from an older release, of its content hash. */
  hashPrefix?: string;
  /** Where it came from, for messages: "responses.jsonl line 3". */
  origin: string;
}

/**
 * Imported manifests by skill name (or id). A line whose custom_id names a hash is imported only while the skill's
 * own text is the one its request showed: its text hash, or a content hash that text had (`formerHashes`, by skill
 * id, and the skill's current one) for a request exported by an older release. Any other is refused with a notice.
 */
export function importSource(imports: Map<string, ImportedManifest>, notice: (message: string) => void, formerHashes: ReadonlyMap<string, readonly string[]> = new Map()): ManifestWriter {
  const importFor = (subject: ExpansionSubject) => imports.get(subject.name) ?? imports.get(subject.id);
  return {
    name: "import",
    claim(subject) {
      const imported = importFor(subject);
      if (!imported) return undefined;
      const prefix = imported.hashPrefix;
      if (prefix !== undefined && ![skillTextHash(subject), subject.contentHash, ...(formerHashes.get(subject.id) ?? [])].some((hash) => hash.startsWith(prefix))) {
        notice(
          `skill "${subject.name}": its text (name, description, body or parameters) changed since its request was exported (${imported.origin}); that manifest was not imported: export and run the request again`,
        );
        return undefined;
      }
      return { version: completedVersion(`import:${createHash("sha256").update(JSON.stringify(imported.manifest)).digest("hex").slice(0, 16)}`) };
    },
    write: async (subject) => ({ manifest: completeManifest(importFor(subject)!.manifest, heuristicManifest(subject)) }),
  };
}
