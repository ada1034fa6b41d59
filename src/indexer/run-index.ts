import { existsSync } from "node:fs";
import path from "node:path";
import { createError } from "../errors.js";
import { loadSkills, type LoadedSkill } from "../skills/load-skills.js";
import { countTokens } from "../skills/token-count.js";
import type { Skill, SkillProblem } from "../skills/types.js";
import { openIndexForWrite } from "../store/database.js";
import { readMeta, writeMetaValue, writeRoots } from "../store/index-meta.js";
import { deleteSkill, readSkillStates, upsertSkill, type StoredSkillState } from "../store/skill-rows.js";

export interface IndexOptions {
  /** Folders or files to index; the index mirrors exactly these (skills no longer found are removed). */
  paths: string[];
  db: string;
  /** Allow a run that finds no skill at all (it empties the index). */
  allowEmpty?: boolean;
  onProgress?: (event: IndexProgress) => void;
}

export type IndexProgress = { stage: "read"; done: number; total: number; file: string } | { stage: "write"; done: number; total: number };

export interface IndexSummary {
  db: string;
  added: string[];
  updated: string[];
  unchanged: number;
  removed: string[];
  invalid: SkillProblem[];
  warnings: SkillProblem[];
  ignored: SkillProblem[];
  skills: number;
  indexVersion: number;
  durationMs: number;
}

/**
 * Reads the skills under the paths and brings the index in line with them. Unchanged content hashes cost
 * nothing; the whole run commits in one transaction, so a crash leaves the previous index as it was.
 */
export async function runIndex(options: IndexOptions): Promise<IndexSummary> {
  const started = performance.now();
  const roots = checkPaths(options.paths);
  const loaded = await loadSkills(roots, (done, total, file) => options.onProgress?.({ stage: "read", done, total, file }));
  if (loaded.skills.length === 0 && !options.allowEmpty) {
    const reason = loaded.invalid.length > 0 ? `all ${loaded.invalid.length} skill files found are invalid` : "no SKILL.md, skill.md, tool .json or .zip found";
    throw createError("NO_SKILLS_FOUND", `No skills found under ${roots.join(", ")}: ${reason}. The index was left unchanged.`, {
      invalid: loaded.invalid,
    });
  }

  const db = openIndexForWrite(options.db);
  try {
    const stored = readSkillStates(db);
    const plan = planChanges(loaded.skills, stored);
    const changed = plan.changed.map((skill) => ({ ...skill, tokens: countTokens(skill.injection) }));
    const now = new Date().toISOString();
    const indexVersion = db.transaction(() => {
      for (const state of plan.removed) deleteSkill(db, state.id);
      changed.forEach((skill, done) => {
        const previous = stored.get(skill.name);
        // Same name, other kind: the old row goes first so the name stays unique.
        if (previous && previous.id !== skill.id) deleteSkill(db, previous.id);
        upsertSkill(db, skill, now);
        options.onProgress?.({ stage: "write", done: done + 1, total: changed.length });
      });
      return commitRunMeta(db, roots, plan, now);
    }).immediate();
    recordRun(db, started, now, plan, loaded.invalid.length);
    return {
      db: options.db,
      added: plan.added.map((skill) => skill.name),
      updated: plan.updated.map((skill) => skill.name),
      unchanged: plan.unchanged,
      removed: plan.removed.map((state) => state.name),
      invalid: loaded.invalid,
      warnings: loaded.warnings,
      ignored: loaded.ignored,
      skills: loaded.skills.length,
      indexVersion,
      durationMs: performance.now() - started,
    };
  } finally {
    db.close();
  }
}

function checkPaths(paths: string[]): string[] {
  if (paths.length === 0) throw createError("PATHS_MISSING", "No path given: `router index <path...>` needs at least one skills folder or file");
  return paths.map((given) => {
    if (given.trim() === "") throw createError("PATHS_MISSING", "An empty path was given");
    const resolved = path.resolve(given);
    if (!existsSync(resolved)) throw createError("PATH_NOT_FOUND", `Path does not exist: ${given}`, { path: given });
    return resolved;
  });
}

interface ChangePlan {
  added: LoadedSkill[];
  updated: LoadedSkill[];
  changed: LoadedSkill[];
  unchanged: number;
  removed: StoredSkillState[];
}

function planChanges(skills: LoadedSkill[], stored: Map<string, StoredSkillState>): ChangePlan {
  const plan: ChangePlan = { added: [], updated: [], changed: [], unchanged: 0, removed: [] };
  const seen = new Set<string>();
  for (const skill of skills) {
    seen.add(skill.name);
    const previous = stored.get(skill.name);
    if (!previous) plan.added.push(skill);
    else if (previous.contentHash !== skill.contentHash || previous.sourcePath !== skill.sourcePath || previous.id !== skill.id) plan.updated.push(skill);
    else plan.unchanged++;
  }
  plan.changed = [...plan.added, ...plan.updated];
  plan.removed = [...stored.values()].filter((state) => !seen.has(state.name));
  return plan;
}

function commitRunMeta(db: ReturnType<typeof openIndexForWrite>, roots: string[], plan: ChangePlan, now: string): number {
  const meta = readMeta(db);
  const rootsChanged = meta.roots.join("\n") !== roots.join("\n");
  const changed = plan.changed.length > 0 || plan.removed.length > 0 || rootsChanged;
  if (!changed) return meta.indexVersion;
  writeRoots(db, roots);
  writeMetaValue(db, "index_version", String(meta.indexVersion + 1));
  writeMetaValue(db, "updated_at", now);
  return meta.indexVersion + 1;
}

function recordRun(db: ReturnType<typeof openIndexForWrite>, started: number, startedAt: string, plan: ChangePlan, invalid: number): void {
  const summary = { added: plan.added.length, updated: plan.updated.length, unchanged: plan.unchanged, removed: plan.removed.length, invalid, durationMs: Math.round(performance.now() - started) };
  db.prepare("INSERT INTO index_runs (started_at, finished_at, summary) VALUES (?, ?, ?)").run(startedAt, new Date().toISOString(), JSON.stringify(summary));
}
