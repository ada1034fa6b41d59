import path from "node:path";
import type { RiskFlag, SkillMetadata, SkillRecord } from "./records.js";
import type { IndexDatabase } from "./database.js";
import { readRootFolders } from "./index-meta.js";
import { servedInjection, servedRootFolders, servedSourcePath } from "./skill-location.js";

/** What the indexer needs to know about a stored skill to decide whether it changed or only moved, and the key its risk flags are stored under. */
export type StoredSkillState = Pick<SkillRecord, "id" | "name" | "contentHash" | "relativePath" | "tokens"> & { rootPosition: number; riskKey: string };

/** A skill as listed by `router skills` and `GET /skills`. */
export type SkillSummary = Pick<SkillRecord, "id" | "name" | "kind" | "format" | "description" | "tokens" | "sourcePath" | "risks">;

export function readSkillStates(db: IndexDatabase): Map<string, StoredSkillState> {
  const rows = db
    .prepare("SELECT id, name, content_hash AS contentHash, source_path AS relativePath, root_position AS rootPosition, tokens, risk_key AS riskKey FROM skills")
    .all() as StoredSkillState[];
  return new Map(rows.map((row) => [row.name, row]));
}

/**
 * Writes a skill with its source path relative to the root at `rootPosition` (skill.relativePath): no absolute path is
 * stored. Its risk flags are stored under the key they were made under (skills/risk-key.ts).
 */
export function upsertSkill(db: IndexDatabase, skill: SkillRecord & { riskKey: string }, rootPosition: number, now: string): void {
  db.prepare(
    `INSERT INTO skills (id, name, kind, format, description, body, injection, tokens, source_path, root_position, content_hash, metadata, warnings, risks, risk_key, updated_at)
     VALUES (@id, @name, @kind, @format, @description, @body, @injection, @tokens, @relativePath, @rootPosition, @contentHash, @metadata, @warnings, @risks, @riskKey, @now)
     ON CONFLICT (id) DO UPDATE SET name = excluded.name, format = excluded.format, description = excluded.description,
       body = excluded.body, injection = excluded.injection, tokens = excluded.tokens, source_path = excluded.source_path,
       root_position = excluded.root_position, content_hash = excluded.content_hash, metadata = excluded.metadata, warnings = excluded.warnings,
       risks = excluded.risks, risk_key = excluded.risk_key, updated_at = excluded.updated_at`,
  ).run({ ...skill, rootPosition, metadata: JSON.stringify(skill.metadata), warnings: JSON.stringify(skill.warnings), risks: JSON.stringify(skill.risks), now });
}

/** Records that an unchanged skill now lives elsewhere under the indexed roots; its manifest and vectors stay. */
export function moveSkill(db: IndexDatabase, id: string, relativePath: string, rootPosition: number, now: string): void {
  db.prepare("UPDATE skills SET source_path = ?, root_position = ?, updated_at = ? WHERE id = ?").run(relativePath, rootPosition, now, id);
}

/** Records the key an unchanged skill's flags are now stored under (new rules, or another part of its file changed), so the next run reuses them. */
export function rekeySkillRisks(db: IndexDatabase, id: string, riskKey: string): void {
  db.prepare("UPDATE skills SET risk_key = ? WHERE id = ?").run(riskKey, id);
}

/** Every stored skill's risk flags by the key they were made under: what an index run reuses rather than read its skills again. */
export function readStoredRisks(db: IndexDatabase): Map<string, RiskFlag[]> {
  const rows = db.prepare("SELECT risk_key AS riskKey, risks FROM skills WHERE risk_key != ''").all() as { riskKey: string; risks: string }[];
  return new Map(rows.map((row) => [row.riskKey, JSON.parse(row.risks) as RiskFlag[]]));
}

/** The flags of every flagged skill, by name: what a route tells the agent about a skill it answers with. */
export function flaggedSkills(db: IndexDatabase): Map<string, RiskFlag[]> {
  const rows = db.prepare("SELECT name, risks FROM skills WHERE risks != '[]'").all() as { name: string; risks: string }[];
  return new Map(rows.map((row) => [row.name, JSON.parse(row.risks) as RiskFlag[]]));
}

export function deleteSkill(db: IndexDatabase, id: string): void {
  db.prepare("DELETE FROM skills WHERE id = ?").run(id);
}

/** Every skill, its source path where it is served (see store/skill-location.ts: ROUTER_SKILLS_ROOT re-bases the roots). */
export function listSkills(db: IndexDatabase, override?: string[]): SkillSummary[] {
  const folders = servedRootFolders(readRootFolders(db), override);
  const rows = db.prepare("SELECT id, name, kind, format, description, tokens, source_path AS relativePath, root_position AS rootPosition, risks FROM skills ORDER BY name").all() as (Omit<
    SkillSummary,
    "sourcePath" | "risks"
  > & { relativePath: string; rootPosition: number; risks: string })[];
  return rows.map(({ relativePath, rootPosition, risks, ...row }) => ({ ...row, sourcePath: servedSourcePath(folders[rootPosition] ?? "", relativePath), risks: JSON.parse(risks) as RiskFlag[] }));
}

/**
 * One skill as it is handed to an agent: its source path and the folder its injection lists supporting files in
 * are where the index is served from (its roots as indexed, or as ROUTER_SKILLS_ROOT re-bases them).
 */
export function getSkill(db: IndexDatabase, name: string, override?: string[]): SkillRecord | undefined {
  const row = db
    .prepare(
      `SELECT id, name, kind, format, description, body, injection, tokens, source_path AS relativePath, root_position AS rootPosition,
         content_hash AS contentHash, metadata, warnings, risks
       FROM skills WHERE name = ?`,
    )
    .get(name) as (Omit<SkillRecord, "metadata" | "warnings" | "risks" | "sourcePath" | "root"> & { rootPosition: number; metadata: string; warnings: string; risks: string }) | undefined;
  if (!row) return undefined;
  const { rootPosition, ...fields } = row;
  const metadata = JSON.parse(row.metadata) as SkillMetadata;
  const root = servedRootFolders(readRootFolders(db), override)[rootPosition] ?? "";
  const sourcePath = servedSourcePath(root, row.relativePath);
  const files = [...(metadata.supportingFiles ?? []), ...(metadata.modules ?? [])];
  const injection = servedInjection(row.injection, files, path.dirname(sourcePath));
  return { ...fields, sourcePath, injection, root, metadata, warnings: JSON.parse(row.warnings) as string[], risks: JSON.parse(row.risks) as RiskFlag[] };
}

export function countSkills(db: IndexDatabase): number {
  return (db.prepare("SELECT count(*) AS n FROM skills").get() as { n: number }).n;
}
