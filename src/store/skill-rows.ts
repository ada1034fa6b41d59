import type { Skill, SkillMetadata } from "../skills/types.js";
import type { IndexDatabase } from "./database.js";

/** What the indexer needs to know about a stored skill to decide whether it changed. */
export type StoredSkillState = Pick<Skill, "id" | "name" | "contentHash" | "sourcePath" | "tokens">;

/** A skill as listed by `router skills` and `GET /skills`. */
export type SkillSummary = Pick<Skill, "id" | "name" | "kind" | "format" | "description" | "tokens" | "sourcePath">;

export function readSkillStates(db: IndexDatabase): Map<string, StoredSkillState> {
  const rows = db.prepare("SELECT id, name, content_hash AS contentHash, source_path AS sourcePath, tokens FROM skills").all() as StoredSkillState[];
  return new Map(rows.map((row) => [row.name, row]));
}

export function upsertSkill(db: IndexDatabase, skill: Skill, now: string): void {
  db.prepare(
    `INSERT INTO skills (id, name, kind, format, description, body, injection, tokens, source_path, root, content_hash, metadata, warnings, updated_at)
     VALUES (@id, @name, @kind, @format, @description, @body, @injection, @tokens, @sourcePath, @root, @contentHash, @metadata, @warnings, @now)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, format = excluded.format, description = excluded.description,
       body = excluded.body, injection = excluded.injection, tokens = excluded.tokens, source_path = excluded.source_path,
       root = excluded.root, content_hash = excluded.content_hash, metadata = excluded.metadata, warnings = excluded.warnings,
       updated_at = excluded.updated_at`,
  ).run({ ...skill, metadata: JSON.stringify(skill.metadata), warnings: JSON.stringify(skill.warnings), now });
}

export function deleteSkill(db: IndexDatabase, id: string): void {
  db.prepare("DELETE FROM skills WHERE id = ?").run(id);
}

export function listSkills(db: IndexDatabase): SkillSummary[] {
  return db
    .prepare("SELECT id, name, kind, format, description, tokens, source_path AS sourcePath FROM skills ORDER BY name")
    .all() as SkillSummary[];
}

export function getSkill(db: IndexDatabase, name: string): Skill | undefined {
  const row = db
    .prepare(
      `SELECT id, name, kind, format, description, body, injection, tokens, source_path AS sourcePath, root, content_hash AS contentHash, metadata, warnings
       FROM skills WHERE name = ?`,
    )
    .get(name) as (Omit<Skill, "metadata" | "warnings"> & { metadata: string; warnings: string }) | undefined;
  return row && { ...row, metadata: JSON.parse(row.metadata) as SkillMetadata, warnings: JSON.parse(row.warnings) as string[] };
}

export function countSkills(db: IndexDatabase): number {
  return (db.prepare("SELECT count(*) AS n FROM skills").get() as { n: number }).n;
}
