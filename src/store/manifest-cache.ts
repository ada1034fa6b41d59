import type { Manifest } from "./records.js";
import type { IndexDatabase } from "./database.js";

/** The key of a paid-for manifest: the same skill text (store/skill-text.ts), prompt and model give the same answer's worth. */
export interface ManifestCacheKey {
  textHash: string;
  promptVersion: string;
  model: string;
}

/**
 * LLM manifests kept across runs. Each write commits on its own, outside the index run's transaction, so an
 * answer survives a crash or a failure later in the run.
 */
export interface ManifestCache {
  get(key: ManifestCacheKey): Manifest | undefined;
  /** The newest manifest for this skill text and prompt from any model (used when no LLM is configured). */
  getAnyModel(textHash: string, promptVersion: string): { model: string; manifest: Manifest } | undefined;
  put(key: ManifestCacheKey, manifest: Manifest): void;
  /** Whether any answer is cached for this prompt: with none, no skill's text need be hashed to look one up. */
  holdsAny(promptVersion: string): boolean;
}

export function sqliteManifestCache(db: IndexDatabase): ManifestCache {
  const select = db.prepare("SELECT manifest FROM manifest_cache WHERE text_hash = ? AND prompt_version = ? AND model = ?");
  const selectPrompt = db.prepare("SELECT 1 FROM manifest_cache WHERE prompt_version = ? LIMIT 1");
  const selectAny = db.prepare("SELECT model, manifest FROM manifest_cache WHERE text_hash = ? AND prompt_version = ? ORDER BY created_at DESC, model LIMIT 1");
  const upsert = db.prepare(
    `INSERT INTO manifest_cache (text_hash, prompt_version, model, manifest, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (text_hash, prompt_version, model) DO UPDATE SET manifest = excluded.manifest, created_at = excluded.created_at`,
  );
  return {
    get(key) {
      const row = select.get(key.textHash, key.promptVersion, key.model) as { manifest: string } | undefined;
      return row ? (JSON.parse(row.manifest) as Manifest) : undefined;
    },
    getAnyModel(textHash, promptVersion) {
      const row = selectAny.get(textHash, promptVersion) as { model: string; manifest: string } | undefined;
      return row ? { model: row.model, manifest: JSON.parse(row.manifest) as Manifest } : undefined;
    },
    holdsAny(promptVersion) {
      return selectPrompt.get(promptVersion) !== undefined;
    },
    put(key, manifest) {
      upsert.run(key.textHash, key.promptVersion, key.model, JSON.stringify(manifest), new Date().toISOString());
    },
  };
}
