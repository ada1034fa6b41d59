import type { Manifest, ManifestSource, StoredManifest } from "./records.js";
import type { IndexDatabase } from "./database.js";

/** A stored manifest and the skill text it was made from (store/skill-text.ts). */
export interface IndexedManifest extends StoredManifest {
  textHash: string;
}

export function upsertManifest(db: IndexDatabase, skillId: string, textHash: string, stored: StoredManifest): void {
  db.prepare(
    `INSERT INTO manifests (skill_id, source, version, text_hash, manifest) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (skill_id) DO UPDATE SET source = excluded.source, version = excluded.version, text_hash = excluded.text_hash, manifest = excluded.manifest`,
  ).run(skillId, stored.source, stored.version, textHash, JSON.stringify(stored.manifest));
}

/** Replaces a stored manifest's content, its source and version kept. */
export function replaceManifest(db: IndexDatabase, skillId: string, manifest: Manifest): void {
  db.prepare("UPDATE manifests SET manifest = ? WHERE skill_id = ?").run(JSON.stringify(manifest), skillId);
}

/** Every stored manifest by skill id. */
export function readManifests(db: IndexDatabase): Map<string, IndexedManifest> {
  const rows = db.prepare("SELECT skill_id AS skillId, source, version, text_hash AS textHash, manifest FROM manifests").all() as {
    skillId: string;
    source: ManifestSource;
    version: string;
    textHash: string;
    manifest: string;
  }[];
  return new Map(rows.map((row) => [row.skillId, { source: row.source, version: row.version, textHash: row.textHash, manifest: JSON.parse(row.manifest) as Manifest }]));
}
