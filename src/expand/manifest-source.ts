import type { Manifest, ManifestSource } from "../store/records.js";
import type { ExpansionSubject } from "./expansion-subject.js";

/** That a source has a manifest for a subject, and which version of it: equal versions mean the same manifest. */
export interface SourceClaim {
  version: string;
}

/** What a source wrote, or why it could not (the next source of the chain then writes the manifest). */
export type SourceOutcome = { manifest: Manifest /** Taken from the manifest cache, not asked for. */; cached?: boolean } | { failed: string };

/**
 * One place a manifest can come from. The chain (expand-skills.ts) asks each source in order and the first that
 * claims a skill writes its manifest; all sources pass test/expand/manifest-source-conformance.ts.
 */
export interface ManifestWriter {
  readonly name: ManifestSource;
  /** Whether this source has a manifest for the subject, and its version; cheap (no network, no model), so the indexer can ask it of every unchanged skill. */
  claim(subject: ExpansionSubject): SourceClaim | undefined;
  /** The complete manifest of a subject this source claimed. Never throws for a server's or a file's fault. */
  write(subject: ExpansionSubject, claim: SourceClaim): Promise<SourceOutcome>;
}
