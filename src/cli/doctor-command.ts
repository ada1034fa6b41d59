import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import type { SettingSource } from "../config/load-settings.js";
import { modelOptions } from "../config/model-options.js";
import { addSettingOptions, SERVE_FLAGS, settingsOf } from "../config/setting-options.js";
import { DEFAULT_SETTINGS, isLoopback, maskSecrets, SETTING_KEYS, type SettingKey, type Settings } from "../config/settings.js";
import { isRouterError } from "../errors.js";
import type { ModelDiagnosis } from "../models/diagnose-models.js";
import type { ModelSettings } from "../models/model-settings.js";
import type { EvidenceFloor } from "../store/evidence-floor.js";
import type { FoldedFeedback } from "../store/feedback-rows.js";
import type { IndexScope } from "../store/index-scope.js";
import type { ShareScale } from "../store/share-scale.js";
import { readMeta } from "../store/index-meta.js";
import type { RiskRule } from "../store/records.js";
import { countSkills, listSkills } from "../store/skill-rows.js";
import { flaggedRules } from "../skills/risk-scan.js";
import { countTexts, countVectors } from "../store/vectors.js";
import { EXIT } from "./exit-codes.js";
import { indexScopeText } from "./index-scope-text.js";
import { shareScaleBasis } from "./share-scale-basis.js";

interface IndexReport {
  path: string;
  exists: boolean;
  version?: number;
  skills?: number;
  texts?: number;
  vectors?: number;
  embedder?: string | null;
  dimension?: number | null;
  /** Whether `router index` wrote the routing data in the format this release reads. */
  routingDataCurrent?: boolean;
  /** What routing runs on: the shipped defaults with what `router index` measured on this index, or `router fit`'s parameters. */
  calibration?: { parameters: "defaults" | "fitted"; evidenceFloor: EvidenceFloor | null; shareScale: ShareScale | null; scope: IndexScope | null; feedback: number };
  /** Indexed skills the risky-skill rules flagged (`router index --risky warn`), with the rules each breaks. */
  risky?: { name: string; file: string; rules: RiskRule[] }[];
  error?: { code: string; message: string };
}

interface FeedbackReport {
  store: string;
  kind: "index" | "postgres";
  rows: number | null;
  folded: FoldedFeedback | null;
  error?: { code: string; message: string };
}

/** The settings `router serve` (and every other command) would run with given the same flags, environment and config file (secrets masked). */
type ConfigReport = { file: string | null; settings: Record<SettingKey, unknown>; sources: Record<SettingKey, SettingSource> } | { error: { code: string; message: string } };

interface DoctorReport {
  status: "ok" | "warnings" | "problems";
  config: ConfigReport;
  models: ModelDiagnosis;
  /** The Chinese-English gloss table that lets Chinese requests match skills written in English. */
  hanGlosses: boolean;
  index: IndexReport;
  /** Where feedback goes (its password masked), how many rows it holds, and which of them the index's version holds. */
  feedback: FeedbackReport | null;
  warnings: string[];
  problems: string[];
}

export function doctorCommand(): Command {
  const command = new Command("doctor").description(
    `print the effective config (what \`router serve\` would use with the same flags, environment and --config; secrets masked), check the embedder (what auto picks and why), the model files, the reranker and the index; exits ${EXIT.FAILURE} when something would break routing`,
  );
  return addSettingOptions(command, [...SERVE_FLAGS, "modelsDir"])
    .option("--json", "print the report as JSON")
    .action(async (options: { json?: boolean }) => {
      const report = await buildReport(command);
      process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
      if (report.status === "problems") process.exitCode = EXIT.FAILURE;
    });
}

async function buildReport(command: Command): Promise<DoctorReport> {
  const warnings: string[] = [];
  const problems: string[] = [];
  const { config, db, modelSettings, feedbackSettings } = await readConfig(command, warnings, problems);
  const { diagnoseModels } = await import("../models/diagnose-models.js");
  const models = await diagnoseModels(modelSettings);
  const index = await readIndex(db);
  const { hanGlossesAvailable } = await import("../text/han-gloss.js");
  const hanGlosses = hanGlossesAvailable();
  if (!hanGlosses) warnings.push("the Chinese gloss table is missing (models/han-glosses): Chinese requests match only skills written in Chinese; run `npm run build`");
  if ("error" in models.embedder) problems.push(`embedder: ${models.embedder.error.message}`);
  else if (!models.embedder.check.ok) problems.push(`embedder ${models.embedder.id} does not load: ${models.embedder.check.message}`);
  // The reranker only matters when the tie-break is asked for; otherwise its absence is how things should be.
  const tieBreak = "settings" in config && config.settings.tieBreak === true;
  if (tieBreak && !models.reranker.available) warnings.push(`tie-break asked for but the reranker is unavailable: ${models.reranker.reason}`);
  if (index.error) problems.push(`index: ${index.error.message}`);
  else if (!index.exists) warnings.push(`no index at ${db} yet: run \`router index <path>\``);
  else {
    if (index.texts !== index.vectors) problems.push(`index has ${index.texts} texts but ${index.vectors} vectors: run \`router index\` again`);
    if (index.skills !== 0 && !index.routingDataCurrent) problems.push("index's routing data was written by an older skill-router: run `router index` again (nothing is embedded again)");
    if (index.embedder && "id" in models.embedder && index.embedder !== models.embedder.id) warnings.push(...(await embedderChange(index.embedder, models.embedder.id, modelSettings, problems)));
    const risky = index.risky ?? [];
    if (risky.length > 0) {
      warnings.push(
        `${risky.length} indexed skill${risky.length === 1 ? "" : "s"} flagged by the risky-skill rules, and injected when routed: ${risky.map((skill) => skill.name).join(", ")}; \`router show <name>\` says where, \`router index --risky exclude\` leaves them out`,
      );
    }
  }
  const feedback = feedbackSettings ? await readFeedback(feedbackSettings, warnings) : null;
  const status = problems.length > 0 ? "problems" : warnings.length > 0 ? "warnings" : "ok";
  return { status, config, models, hanGlosses, index, feedback, warnings, problems };
}

/** The settings, or the problem with them; then the index and the models are checked with the flags alone. */
async function readConfig(command: Command, warnings: string[], problems: string[]): Promise<{ config: ConfigReport; db: string; modelSettings: Partial<ModelSettings>; feedbackSettings?: Settings }> {
  try {
    const { settings, sources, configFile } = await settingsOf(command);
    warnings.push(...settingWarnings(settings));
    for (const dir of settings.watch) if (!existsSync(dir)) problems.push(`watch: ${dir} does not exist`);
    return { config: { file: configFile ?? null, settings: maskSecrets(settings), sources }, db: settings.db, modelSettings: modelOptions(settings), feedbackSettings: settings };
  } catch (error) {
    const reason = isRouterError(error) ? { code: error.code, message: error.message } : { code: "INVALID_ARGUMENT", message: String(error) };
    problems.push(`config: ${reason.message}`);
    const flag = (name: string): string | undefined => command.getOptionValue(name);
    return { config: { error: reason }, db: flag("db") ?? DEFAULT_SETTINGS.db, modelSettings: { modelsDir: flag("modelsDir") ?? DEFAULT_SETTINGS.modelsDir } };
  }
}

function settingWarnings(settings: Settings): string[] {
  const warnings: string[] = [];
  if (!isLoopback(settings.host) && !settings.apiKey) warnings.push(`serving on ${settings.host} without an API key: anyone who reaches the port can route and read skills (set ROUTER_API_KEY)`);
  if (settings.corsOrigins.includes("*")) warnings.push("CORS allows any origin: every website a user opens can call the router from their browser");
  if (settings.metricsPublic && settings.apiKey) warnings.push("/metrics is served without the API key: skill names appear in its labels");
  return warnings;
}

/**
 * Where feedback goes and what the index holds of it. A store that does not answer is a warning, not a problem:
 * routing never needs it, and POST /feedback answers 503 with Retry-After meanwhile.
 */
async function readFeedback(settings: Settings, warnings: string[]): Promise<FeedbackReport> {
  const { createFeedbackStore } = await import("../feedback/create-feedback-store.js");
  const { foldedFeedbackOf } = await import("../feedback/folded-feedback.js");
  const store = await createFeedbackStore(settings, { waitMs: 0 });
  const report: FeedbackReport = { store: store.where, kind: store.kind, rows: null, folded: foldedFeedbackOf(settings.db) ?? null };
  try {
    if (store.kind === "index" && existsSync(settings.db) && !writable(settings.db)) {
      warnings.push(`${settings.db} is read-only and feedback is kept in the index: POST /feedback answers 409 FEEDBACK_STORE_READ_ONLY; set ROUTER_FEEDBACK_URL to keep it in PostgreSQL`);
    }
    if (store.kind === "postgres" || existsSync(settings.db)) report.rows = await store.count();
  } catch (error) {
    report.error = isRouterError(error) ? { code: error.code, message: error.message } : { code: "FEEDBACK_STORE_UNAVAILABLE", message: String(error) };
    warnings.push(`feedback store: ${report.error.message}`);
  } finally {
    await store.close();
  }
  return report;
}

/** Whether this process may write the file and its folder (SQLite's journal lives beside it). */
function writable(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    accessSync(path.dirname(file), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The index was built by another embedder than `auto` picks now: fine until the next index run, unless it is gone. */
async function embedderChange(indexEmbedder: string, current: string, modelSettings: Partial<ModelSettings>, problems: string[]): Promise<string[]> {
  const { planEmbedder } = await import("../models/create-embedder.js");
  try {
    planEmbedder({ ...modelSettings, indexEmbedder });
    return [`index built with ${indexEmbedder}, but ${current} is picked now: queries keep using ${indexEmbedder} until the next \`router index\` re-embeds every skill`];
  } catch (error) {
    problems.push(isRouterError(error) ? error.message : String(error));
    return [];
  }
}

async function readIndex(path: string): Promise<IndexReport> {
  if (!existsSync(path)) return { path, exists: false };
  const { asIndexError, openIndexForRead } = await import("../store/database.js");
  try {
    const { checkIndexIntegrity } = await import("../store/index-integrity.js");
    const { hasCurrentRoutingData } = await import("../indexer/build-routing-data.js");
    const { fittedParams } = await import("../route/index-params.js");
    const { evidenceFloorRecord } = await import("../store/evidence-floor.js");
    const { shareScaleRecord } = await import("../store/share-scale.js");
    const { indexScopeRecord } = await import("../store/index-scope.js");
    const { countFeedback } = await import("../store/feedback-rows.js");
    const db = openIndexForRead(path);
    try {
      // What the tables below read is sound is not enough: a server reads every page sooner or later.
      checkIndexIntegrity(db, path);
      const meta = readMeta(db);
      return {
        path,
        exists: true,
        version: meta.indexVersion,
        skills: countSkills(db),
        texts: countTexts(db),
        vectors: countVectors(db),
        embedder: meta.embedder ?? null,
        dimension: meta.dimension ?? null,
        routingDataCurrent: hasCurrentRoutingData(db),
        calibration: {
          parameters: fittedParams(db, meta.embedder ?? null) ? "fitted" : "defaults",
          evidenceFloor: evidenceFloorRecord.read(db) ?? null,
          shareScale: shareScaleRecord.read(db) ?? null,
          scope: indexScopeRecord.read(db) ?? null,
          feedback: countFeedback(db),
        },
        risky: listSkills(db)
          .filter((skill) => skill.risks.length > 0)
          .map((skill) => ({ name: skill.name, file: skill.sourcePath, rules: flaggedRules(skill.risks) })),
      };
    } finally {
      db.close();
    }
  } catch (error) {
    const known = asIndexError(error, path);
    return { path, exists: true, error: isRouterError(known) ? { code: known.code, message: known.message } : { code: "INDEX_CORRUPT", message: String(error) } };
  }
}

function formatReport(report: DoctorReport): string {
  const { models, index } = report;
  const embedder = models.embedder;
  const lines = [...formatConfig(report.config), "", "Embedder", `  choice     ${models.choice} (ROUTER_EMBEDDER)`];
  if ("error" in embedder) lines.push(`  error      [${embedder.error.code}] ${embedder.error.message}`);
  else {
    lines.push(`  in use     ${embedder.id} (${embedder.dimension}-d)`, `  why        ${embedder.reason}`);
    lines.push(`  loads      ${embedder.check.ok ? `ok, ${embedder.check.ms} ms to load and embed` : `FAILED [${embedder.check.code}] ${embedder.check.message}`}`);
  }
  lines.push("", `Model files (${models.modelsDir})`);
  for (const file of models.files) lines.push(`  ${file.name.padEnd(9)}  ${file.dtype ? `ready (${file.dtype})` : `missing ${file.missing.join(", ")}`}  ${file.folder}`);
  const tieBreak = "settings" in report.config && report.config.settings.tieBreak === true;
  lines.push("", "Reranker (tie-break between close candidates)", `  tie-break  ${tieBreak ? "on" : "off (ROUTER_TIE_BREAK)"}`);
  lines.push(`  model      ${models.reranker.available ? `${models.reranker.id}, ok, ${models.reranker.check.ms} ms to load and score` : `unavailable: ${models.reranker.reason}`}`);
  lines.push("", "Chinese glosses", `  ${report.hanGlosses ? "ready: Chinese requests are also read in English (CC-CEDICT)" : "missing (run `npm run build`)"}`);
  lines.push("", `Index (${index.path})`);
  if (index.error) lines.push(`  error      [${index.error.code}] ${index.error.message}`);
  else if (!index.exists) lines.push("  none yet");
  else
    lines.push(
      `  version    ${index.version}`,
      `  skills     ${index.skills}`,
      `  texts      ${index.texts}`,
      `  vectors    ${index.vectors}`,
      `  embedder   ${index.embedder ?? "none"}${index.dimension ? ` (${index.dimension}-d)` : ""}`,
      ...(index.calibration ? calibrationLines(index.calibration) : []),
      `  risky      ${index.risky && index.risky.length > 0 ? `${index.risky.length} flagged` : "none flagged"}`,
      ...(index.risky ?? []).map((skill) => `             ${skill.name}: ${skill.rules.join(", ")} (${skill.file})`),
    );
  if (report.feedback) lines.push("", ...feedbackLines(report.feedback));
  if (report.warnings.length > 0) lines.push("", "Warnings", ...report.warnings.map((warning) => `  - ${warning}`));
  if (report.problems.length > 0) lines.push("", "Problems", ...report.problems.map((problem) => `  - ${problem}`));
  lines.push("", `Status: ${report.status}`);
  return `${lines.join("\n")}\n`;
}

/** Where POST /feedback, `router feedback` and MCP report_skill keep feedback, and which of it the index holds. */
function feedbackLines(feedback: FeedbackReport): string[] {
  const folded = feedback.folded;
  return [
    "Feedback",
    `  store      ${feedback.kind === "index" ? `the index itself (set ROUTER_FEEDBACK_URL for replicas on a read-only index)` : `${feedback.store} (ROUTER_FEEDBACK_URL)`}`,
    `  rows       ${feedback.error ? `unknown: [${feedback.error.code}] ${feedback.error.message}` : (feedback.rows ?? 0)}`,
    `  folded     ${folded ? `index holds ${folded.rows} rows of ${folded.store === "index" ? "its own" : folded.store}, up to revision ${folded.revision} (${folded.at})` : "none yet: `router index` folds the store in"}`,
  ];
}

/** What routing runs on, and what `router index` measured of this index with no labels. */
function calibrationLines({ parameters, evidenceFloor, shareScale, scope, feedback }: NonNullable<IndexReport["calibration"]>): string[] {
  const floor = evidenceFloor
    ? `BM25 ${evidenceFloor.bm25.toFixed(2)}, dense ${evidenceFloor.q2qMax.toFixed(2)} (measured on ${evidenceFloor.samples} requests whose skill was left out)${parameters === "fitted" ? "; `router fit`'s parameters keep only the dense one" : ""}`
    : "not measured (an index of fewer than 10 skills)";
  const shares =
    parameters === "fitted"
      ? "as `router fit` calibrated them"
      : shareScale
        ? `scale ${shareScale.scale.toFixed(2)} (${shareScaleBasis(shareScale)})`
        : "as the defaults give them (fewer than 20 skills with requests to hold out)";
  const inScope = parameters === "fitted" ? "as `router fit` learned it" : scope ? indexScopeText(scope) : "the defaults' model (too few skills with requests to hold out)";
  return [
    `  routing    ${parameters === "fitted" ? "parameters fitted by `router fit` (or refit from feedback)" : "the shipped defaults (`router fit` not run)"}`,
    `  floor      ${floor}`,
    `  shares     ${shares}`,
    `  in scope   ${inScope}`,
    `  feedback   ${feedback} pieces kept (\`router feedback list\`)`,
  ];
}

function formatConfig(config: ConfigReport): string[] {
  if ("error" in config) return ["Config", `  error      [${config.error.code}] ${config.error.message}`];
  const width = Math.max(...SETTING_KEYS.map((key) => key.length)) + 2;
  const shown = (value: unknown) => (Array.isArray(value) ? (value.length > 0 ? value.join(", ") : "none") : value === undefined ? "not set" : String(value));
  return [`Config (${config.file ?? "no config file"}; flags > env > file > defaults)`, ...SETTING_KEYS.map((key) => `  ${key.padEnd(width)} ${shown(config.settings[key])} (${config.sources[key]})`)];
}
