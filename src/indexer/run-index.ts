import { existsSync } from "node:fs";
import path from "node:path";
import { createError } from "../errors.js";
import { expandManifests, expansionChain, manifestsToRenew, type ExpandOptions, type ExpansionChain, type ExpansionReport } from "../expand/expand-skills.js";
import type { StoredManifest } from "../expand/manifest.js";
import { planEmbedder, type EmbedderPlan } from "../models/create-embedder.js";
import type { ModelSettings } from "../models/model-settings.js";
import { queryEncoderOver } from "../models/query-encoder.js";
import type { EvidenceCalibration } from "../calibrate/calibrate-evidence.js";
import { calibrateIndex, clearCalibration, MIN_CALIBRATION_SKILLS, needsCalibration, type IndexCalibration } from "../calibrate/calibrate-index.js";
import type { ShareScaleMeasure } from "../calibrate/measure-share-scale.js";
import type { IndexScope } from "../store/index-scope.js";
import type { Embedder } from "../models/embedder.js";
import { loadSkills, type LoadedSkill, type LoadResult } from "../skills/load-skills.js";
import { countTokens } from "../text/token-count.js";
import type { RiskyPolicy } from "../skills/risk-scan.js";
import type { RiskyReport, SkillProblem } from "../skills/types.js";
import { openIndexForRead, openIndexForWrite, type IndexDatabase } from "../store/database.js";
import { setAsideDamagedIndex, type SetAside } from "../store/set-aside-damaged.js";
import { bumpIndexVersion, readMeta, readMetaValue, readRootFolders, writeMetaValue, writeRoots, type IndexedRoot } from "../store/index-meta.js";
import { sqliteManifestCache } from "../store/manifest-cache.js";
import { readManifests, upsertManifest, type IndexedManifest } from "../store/manifest-rows.js";
import type { RiskFlag } from "../store/records.js";
import { deleteSkill, moveSkill, readSkillStates, readStoredRisks, rekeySkillRisks, upsertSkill, type StoredSkillState } from "../store/skill-rows.js";
import { skillTextHash } from "../store/skill-text.js";
import { needsFullEmbed, prepareVectorTable, replaceSkillTexts, type EmbedderIdentity } from "../store/vectors.js";
import { buildRoutingData, hasCurrentRoutingData } from "./build-routing-data.js";
import { analyserVersion } from "./analyser-version.js";
import type { FeedbackApplied } from "../feedback/apply-feedback.js";
import type { FeedbackStore } from "../feedback/feedback-store.js";
import type { FoldedFeedback } from "../store/feedback-rows.js";
import { feedbackSource, foldFeedback } from "./fold-feedback.js";
import { formerContentHashes, keepsPaidManifest } from "./paid-manifests.js";
import type { FeedbackRefit } from "../feedback/refit-from-feedback.js";
import { skillTexts, skillTextsVersion } from "./skill-texts.js";

export interface IndexOptions {
  /** Folders or files to index; the index mirrors exactly these (skills no longer found are removed). */
  paths: string[];
  db: string;
  /** Refuse skills that break the Agent Skills spec instead of indexing them with a warning (skills/types.ts ParseOptions). */
  strict?: boolean;
  /** What a skill the risky-skill rules flag gets: indexed with a warning (default), or left out. */
  risky?: RiskyPolicy;
  /** Allow a run that finds no skill at all (it empties the index). */
  allowEmpty?: boolean;
  /** Measure the evidence floor and the share scale again even if nothing changed (after a change to the router's code, as benches and evals want). */
  recalibrate?: boolean;
  /** The embedder to use; by default one is made (and closed) for the run, only if something needs embedding. */
  embedder?: Embedder;
  /** Where the model files are and which embedder to make (default: auto, this installation's models/). */
  models?: Partial<ModelSettings>;
  /** Which expander writes manifests, the LLM to use, imported manifests; by default the heuristic. */
  expansion?: Pick<ExpandOptions, "expander" | "llm" | "imports" | "onNotice">;
  onProgress?: (event: IndexProgress) => void;
  /** Where feedback is kept when not in the index (a PostgreSQL store shared by replicas): the run folds its rows in. */
  feedbackStore?: FeedbackStore;
}

export type IndexProgress = { stage: "read"; done: number; total: number; file: string } | { stage: "expand" | "embed" | "calibrate" | "shares" | "scope" | "offer"; done: number; total: number };

const LISTED_PROBLEMS = 10;
// Skills embedded per step of the write transaction: bounds memory to a chunk's vectors, not the whole run's.
const EMBED_CHUNK = 64;
const ANALYSER_VERSION_KEY = "analyser_version";
// Calibration routes each probe twice (measure, then check): the second embedding comes from this cache.
const CALIBRATION_CACHE = 1_000;

export interface IndexSummary {
  db: string;
  /** The index file found damaged and moved aside before this run built the index anew. */
  damaged: SetAside | undefined;
  added: string[];
  updated: string[];
  unchanged: number;
  /** Unchanged skills found at another path under the roots: their paths are updated, nothing is embedded again. */
  moved: string[];
  /** Unchanged skills whose manifest was made again (an LLM now configured, another model, an import). */
  reexpanded: string[];
  removed: string[];
  /** Skills whose texts were embedded this run (all of them when the embedder changed). */
  embedded: number;
  embedder: string | undefined;
  expansion: ExpansionReport;
  invalid: SkillProblem[];
  warnings: SkillProblem[];
  ignored: SkillProblem[];
  /** Skills the risky-skill rules flagged: indexed with a warning, or left out by `risky: "exclude"`. */
  risky: RiskyReport[];
  skills: number;
  indexVersion: number;
  /** What the index's feedback now teaches its skills (store/feedback-rows.ts, feedback/apply-feedback.ts). */
  feedback: FeedbackApplied;
  /** The routing parameters refit from the feedback's labels, when there were enough. */
  refit: FeedbackRefit | undefined;
  /** Which of the feedback store's rows this version holds. */
  folded: FoldedFeedback;
  /** What the run measured of the index with no labels, when the index changed (none below MIN_CALIBRATION_SKILLS). */
  calibration: EvidenceCalibration | undefined;
  /** How sharp the default ranking's shares are on this index, measured with the calibration (none when too few skills have requests to hold out). */
  shareScale: ShareScaleMeasure | undefined;
  /** Which in-scope model serves its request-written manifests, measured with the calibration (none when too few skills have requests to hold out). */
  scope: IndexScope | undefined;
  durationMs: number;
}

/**
 * Reads the skills under the paths and brings the index in line with them: read, compare content hashes,
 * expand changed skills into manifests, embed their texts, write, measure. Unchanged content hashes cost nothing.
 * Writing and measuring commit in one transaction, so a crash leaves the previous index as it was, and a version is
 * never served without the routing data and the calibration made for it.
 */
export async function runIndex(options: IndexOptions): Promise<IndexSummary> {
  const started = performance.now();
  const roots = checkPaths(options.paths);
  const loaded = await readSkills(roots, options);
  // A shared feedback store is read before the index's write lock is taken.
  const feedbackRows = await feedbackSource(options.feedbackStore);

  // A damaged file is moved aside, never read or written on: the run builds the index anew and says where it went.
  const damaged = setAsideDamagedIndex(options.db);
  const db = openIndexForWrite(options.db);
  let embedder = options.embedder;
  try {
    // The embedder this run would use, known without loading it, and before any (possibly paid) expansion.
    const embedderPlan = options.embedder ? undefined : planEmbedder(options.models);
    const plan = planRun(db, loaded.skills, options);
    const { manifests, report } = await expandManifests(plan.expand, plan.chain, (done, total) => options.onProgress?.({ stage: "expand", done, total }));
    // When the index's embedder, its code or its model files differ from this run's, every skill is embedded again.
    const fullEmbed = needsFullEmbed(db, embedderIdentity(options.embedder, embedderPlan));
    const toEmbed = fullEmbed ? loaded.skills : plan.write;
    const measured = await inTransaction(db, async () => {
      const now = new Date().toISOString();
      writeSkills(db, plan, manifests, now);
      if (toEmbed.length > 0 || fullEmbed) {
        embedder ??= await embedderPlan!.create();
        // The loaded embedder has the last word: a model pulled on first use has its own size, and files to hash only now.
        prepareVectorTable(db, embedderIdentity(embedder, embedderPlan));
        await embedSkills(
          db,
          embedder,
          toEmbed,
          (skill) => manifests.get(skill.id) ?? plan.storedManifests.get(skill.id)!,
          (done) => options.onProgress?.({ stage: "embed", done, total: toEmbed.length }),
        );
      }
      // Feedback is folded in after the skills' own texts: a skill embedded again gets its requests from use back. The
      // version, its routing data and its calibration follow the texts; the refit then reads them (indexer/fold-feedback.ts).
      let indexVersion = 0;
      let calibration: IndexCalibration = { evidence: undefined, shareScale: undefined, scope: undefined, offer: undefined };
      const loadEmbedder = async () => (embedder ??= await embedderPlan!.create());
      const { feedback, refit, folded } = await foldFeedback(db, feedbackRows, {
        embedder: loadEmbedder,
        afterTexts: async (textsChanged) => {
          indexVersion = commitVersion(db, roots, loaded.rootFolders, plan, now, fullEmbed || textsChanged);
          if (loaded.skills.length < MIN_CALIBRATION_SKILLS) clearCalibration(db);
          // Loading a model costs time: only when something is to be embedded or measured.
          else if (needsCalibration(db, indexVersion, options.recalibrate ?? false)) {
            calibration = await calibrateIndex(db, queryEncoderOver(await loadEmbedder(), CALIBRATION_CACHE), indexVersion, (stage, done, total) => options.onProgress?.({ stage, done, total }));
          }
        },
      });
      recordRun(db, started, now, plan, loaded.invalid.length);
      return { indexVersion, feedback, refit, folded, ...calibration };
    });
    return {
      db: options.db,
      damaged,
      added: plan.added.map((skill) => skill.name),
      updated: plan.updated.map((skill) => skill.name),
      // A renewed skill that also moved is counted as moved, not unchanged.
      unchanged: plan.unchanged - plan.renewed.filter((skill) => !plan.moved.includes(skill)).length,
      moved: plan.moved.map((skill) => skill.name),
      reexpanded: plan.renewed.map((skill) => skill.name),
      removed: plan.removed.map((state) => state.name),
      embedded: embedder ? toEmbed.length : 0,
      embedder: readMeta(db).embedder,
      expansion: report,
      invalid: loaded.invalid,
      warnings: loaded.warnings,
      ignored: loaded.ignored,
      risky: loaded.risky,
      skills: loaded.skills.length,
      indexVersion: measured.indexVersion,
      feedback: measured.feedback,
      refit: measured.refit,
      folded: measured.folded,
      calibration: measured.evidence,
      shareScale: measured.shareScale,
      scope: measured.scope,
      durationMs: performance.now() - started,
    };
  } finally {
    if (embedder && embedder !== options.embedder) await embedder.close();
    db.close();
  }
}

/** Reads every skill under the roots; finding none is an error that names each file and why, unless allowed. */
async function readSkills(roots: string[], options: IndexOptions): Promise<LoadResult> {
  const loaded = await loadSkills(roots, {
    strict: options.strict ?? false,
    risky: options.risky ?? "warn",
    storedRisks: storedRisks(options.db),
    onProgress: (done, total, file) => options.onProgress?.({ stage: "read", done, total, file }),
  });
  if (loaded.skills.length > 0 || options.allowEmpty) return loaded;
  // The message names the files and why, since it may be all a person sees (a failed watch run, a CI log).
  const reason =
    loaded.invalid.length > 0
      ? `all ${loaded.invalid.length} skill files found are invalid:${problemLines(loaded.invalid)}\n`
      : `no SKILL.md, skill.md, tool .json or .zip found.${loaded.warnings.length > 0 ? ` Skipped:${problemLines(loaded.warnings)}\n` : " "}`;
  throw createError("NO_SKILLS_FOUND", `No skills found under ${roots.join(", ")}: ${reason}The index was left unchanged.`, {
    invalid: loaded.invalid,
  });
}

/** The risk flags the index holds, by the key they were made under; none when there is no index yet or it cannot be read (opening it to write says why). */
function storedRisks(file: string): Map<string, RiskFlag[]> {
  try {
    const db = openIndexForRead(file);
    try {
      return readStoredRisks(db);
    } finally {
      db.close();
    }
  } catch {
    return new Map();
  }
}

/** What this run changes: skills added, updated, moved and removed, and unchanged skills whose manifest a better source now writes. */
interface RunPlan extends ChangePlan {
  /** Skills whose manifest this run makes: the changed ones, but for those keeping a paid manifest, and the renewed ones. */
  expand: LoadedSkill[];
  /** Skills to write and embed: the changed ones (tokens counted anew) and the renewed ones. */
  write: (LoadedSkill & { tokens: number })[];
  renewed: LoadedSkill[];
  storedManifests: Map<string, IndexedManifest>;
  chain: ExpansionChain;
}

function planRun(db: IndexDatabase, skills: LoadedSkill[], options: IndexOptions): RunPlan {
  const stored = readSkillStates(db);
  const changes = planChanges(skills, stored);
  const storedManifests = readManifests(db);
  const formerHashes = options.expansion?.imports ? formerContentHashes(skills, stored, storedManifests) : undefined;
  // The cache commits each LLM answer on its own, before the run's transaction: a paid answer is never lost.
  const chain = expansionChain({ ...options.expansion, cache: sqliteManifestCache(db), neighbourPool: skills, formerHashes });
  const changedIds = new Set(changes.changed.map((skill) => skill.id));
  // Updated skills that keep their paid manifest are renewed as unchanged ones are: only when a better source claims them.
  const keepingPaid = new Set(changes.updated.filter((skill) => keepsPaidManifest(skill, storedManifests.get(skill.id))).map((skill) => skill.id));
  const renewing = new Set(
    manifestsToRenew(
      skills.filter((skill) => !changedIds.has(skill.id) || keepingPaid.has(skill.id)),
      storedManifests,
      chain,
    ).map((skill) => skill.id),
  );
  const renewed = skills.filter((skill) => renewing.has(skill.id) && !changedIds.has(skill.id));
  const expand = [...changes.changed.filter((skill) => !keepingPaid.has(skill.id) || renewing.has(skill.id)), ...renewed];
  // A renewed skill's content is unchanged, so its stored token count still holds.
  const write = [...changes.changed.map((skill) => ({ ...skill, tokens: countTokens(skill.injection) })), ...renewed.map((skill) => ({ ...skill, tokens: stored.get(skill.name)!.tokens }))];
  return { ...changes, expand, write, renewed, storedManifests, chain, stored };
}

/** Removes, moves and writes skills with their manifests (inside the run's transaction). */
function writeSkills(db: IndexDatabase, plan: RunPlan, manifests: Map<string, StoredManifest>, now: string): void {
  for (const state of plan.removed) deleteSkill(db, state.id);
  for (const skill of plan.moved) moveSkill(db, skill.id, skill.relativePath, skill.rootPosition, now);
  for (const skill of plan.rekeyed) rekeySkillRisks(db, skill.id, skill.riskKey);
  for (const skill of plan.write) {
    const previous = plan.stored.get(skill.name);
    // Same name, other kind: the old row goes first so the name stays unique.
    if (previous && previous.id !== skill.id) deleteSkill(db, previous.id);
    upsertSkill(db, skill, skill.rootPosition, now);
    upsertManifest(db, skill.id, skillTextHash(skill), manifests.get(skill.id) ?? plan.storedManifests.get(skill.id)!);
  }
}

/**
 * A new index version when anything changed (skills, roots, every vector, a manifest renewed, the analyser), with
 * the routing data made for it; an index written by an older release gets current routing data without a new version.
 */
function commitVersion(db: IndexDatabase, roots: string[], rootFolders: string[], plan: RunPlan, now: string, textsChanged: boolean): number {
  // Another analyser reads the index's words differently: a new index version gets its evidence floor measured again.
  const analyser = analyserVersion();
  const analyserChanged = readMetaValue(db, ANALYSER_VERSION_KEY) !== analyser;
  writeMetaValue(db, ANALYSER_VERSION_KEY, analyser);
  const previousVersion = readMeta(db).indexVersion;
  const version = commitRunMeta(
    db,
    roots.map((root, position) => ({ path: root, folder: rootFolders[position]! })),
    plan,
    now,
    textsChanged || plan.renewed.length > 0 || analyserChanged,
  );
  if (version !== previousVersion || !hasCurrentRoutingData(db)) buildRoutingData(db);
  return version;
}

/** The first few problems, a line each, and how many more. */
function problemLines(problems: SkillProblem[]): string {
  const listed = problems.slice(0, LISTED_PROBLEMS).map((problem) => `\n  ${problem.file}: ${problem.reason}`);
  const more = problems.length > LISTED_PROBLEMS ? `\n  and ${problems.length - LISTED_PROBLEMS} more` : "";
  return listed.join("") + more;
}

/** What made (or would make) the vectors: the embedder's own word where it has one, else its plan's ("" when neither says), and this release's texts. */
function embedderIdentity(embedder: Embedder | undefined, plan: EmbedderPlan | undefined): EmbedderIdentity {
  const source = embedder ?? plan!;
  return {
    id: source.id,
    dimension: source.dimension,
    version: embedder?.version ?? plan?.version ?? "",
    modelFiles: embedder?.modelFiles ?? plan?.modelFiles() ?? "",
    texts: skillTextsVersion(),
  };
}

/** One write transaction around async work (embedding); any failure rolls everything back. */
async function inTransaction<T>(db: IndexDatabase, work: () => Promise<T>): Promise<T> {
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = await work();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

async function embedSkills(db: IndexDatabase, embedder: Embedder, skills: LoadedSkill[], manifestOf: (skill: LoadedSkill) => StoredManifest, onProgress: (done: number) => void): Promise<void> {
  for (let start = 0; start < skills.length; start += EMBED_CHUNK) {
    const chunk = skills.slice(start, start + EMBED_CHUNK);
    const texts = chunk.map((skill) => skillTexts(skill, manifestOf(skill).manifest));
    const vectors = await embedder.embed(texts.flat().map((text) => text.text));
    let offset = 0;
    chunk.forEach((skill, index) => {
      const own = texts[index]!;
      replaceSkillTexts(
        db,
        skill.id,
        own.map((text, position) => ({ ...text, vector: vectors[offset + position]! })),
      );
      offset += own.length;
    });
    onProgress(start + chunk.length);
  }
}

function checkPaths(paths: string[]): string[] {
  if (paths.length === 0) throw createError("PATHS_MISSING", "No path given: `router index <path...>` needs at least one skills folder or file");
  const roots = paths.map((given) => {
    if (given.trim() === "") throw createError("PATHS_MISSING", "An empty path was given");
    const resolved = path.resolve(given);
    if (!existsSync(resolved)) throw createError("PATH_NOT_FOUND", `Path does not exist: ${given}`, { path: given });
    return resolved;
  });
  // A path given twice is one root: skills name their root by position.
  return [...new Set(roots)];
}

interface ChangePlan {
  stored: Map<string, StoredSkillState>;
  added: LoadedSkill[];
  updated: LoadedSkill[];
  changed: LoadedSkill[];
  /** Same content at another path: only the stored path changes (paths are not part of the content hash). */
  moved: LoadedSkill[];
  unchanged: number;
  /** Same content, its flags made under another key (new rules, or another part of its file changed): only the key is written. */
  rekeyed: LoadedSkill[];
  removed: StoredSkillState[];
}

function planChanges(skills: LoadedSkill[], stored: Map<string, StoredSkillState>): ChangePlan {
  const plan: ChangePlan = { stored, added: [], updated: [], changed: [], moved: [], unchanged: 0, rekeyed: [], removed: [] };
  const seen = new Set<string>();
  for (const skill of skills) {
    seen.add(skill.name);
    const previous = stored.get(skill.name);
    if (!previous) plan.added.push(skill);
    else if (previous.contentHash !== skill.contentHash || previous.id !== skill.id) plan.updated.push(skill);
    else {
      if (previous.relativePath !== skill.relativePath || previous.rootPosition !== skill.rootPosition) plan.moved.push(skill);
      else plan.unchanged++;
      if (previous.riskKey !== skill.riskKey) plan.rekeyed.push(skill);
    }
  }
  plan.changed = [...plan.added, ...plan.updated];
  plan.removed = [...stored.values()].filter((state) => !seen.has(state.name));
  return plan;
}

function commitRunMeta(db: IndexDatabase, roots: IndexedRoot[], plan: ChangePlan, now: string, rewritten: boolean): number {
  const meta = readMeta(db);
  const rootsChanged = meta.roots.join("\n") !== roots.map((root) => root.path).join("\n") || readRootFolders(db).join("\n") !== roots.map((root) => root.folder).join("\n");
  const changed = plan.changed.length > 0 || plan.moved.length > 0 || plan.removed.length > 0 || rootsChanged || rewritten;
  if (!changed) return meta.indexVersion;
  writeRoots(db, roots);
  return bumpIndexVersion(db, now);
}

function recordRun(db: IndexDatabase, started: number, startedAt: string, plan: ChangePlan, invalid: number): void {
  const summary = {
    added: plan.added.length,
    updated: plan.updated.length,
    moved: plan.moved.length,
    unchanged: plan.unchanged,
    removed: plan.removed.length,
    invalid,
    durationMs: Math.round(performance.now() - started),
  };
  db.prepare("INSERT INTO index_runs (started_at, finished_at, summary) VALUES (?, ?, ?)").run(startedAt, new Date().toISOString(), JSON.stringify(summary));
}
