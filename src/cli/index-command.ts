import { Command } from "commander";
import type { IndexSummary } from "../indexer/run-index.js";
import type { EvidenceCalibration } from "../calibrate/calibrate-evidence.js";
import type { ShareScaleMeasure } from "../calibrate/measure-share-scale.js";
import { RISK_MEANINGS } from "../skills/risk-scan.js";
import type { RiskyReport, SkillProblem } from "../skills/types.js";
import { llmOptions } from "../config/llm-options.js";
import { modelOptions } from "../config/model-options.js";
import { addSettingOptions, LLM_FLAGS, settingsOf } from "../config/setting-options.js";
import { indexScopeText } from "./index-scope-text.js";
import { shareScaleBasis } from "./share-scale-basis.js";
import { EXIT } from "./exit-codes.js";
import { indexProgress } from "./index-progress.js";

const LISTED_WARNINGS = 10;
const LISTED_FLAGS = 3;

export function indexCommand(): Command {
  const command = new Command("index")
    .description("read skills (SKILL.md / skill.md folders, tool .json files, .zip archives) into the index; the index mirrors the given paths")
    .argument("<path...>", "skill folders or files to index");
  return addSettingOptions(command, ["db", "risky", ...LLM_FLAGS])
    .option("--json", "print the summary as JSON")
    .option(
      "--strict",
      `refuse skills that break the Agent Skills spec (over-long description, YAML that needs repair, a display name as name, non-string fields), which are otherwise indexed with a warning; exit with code ${EXIT.INVALID_SKILLS} when any skill is invalid`,
    )
    .option("--allow-empty", "accept a run that finds no skills (empties the index)")
    .option("--recalibrate", "measure the evidence floor and the share scale again even if no skill changed (a new release of the router does so by itself)")
    .option("-v, --verbose", "list every warning and every ignored file")
    .option("-q, --quiet", "no progress output")
    .action(async (paths: string[], options: { json?: boolean; strict?: boolean; allowEmpty?: boolean; recalibrate?: boolean; verbose?: boolean; quiet?: boolean }, command: Command) => {
      const { settings } = await settingsOf(command);
      const showProgress = !options.quiet && !options.json;
      const progress = indexProgress(showProgress);
      const { runIndex } = await import("../indexer/run-index.js");
      // A shared feedback store (ROUTER_FEEDBACK_URL) is folded in; without one the index's own feedback is.
      const feedbackStore = settings.feedbackUrl ? await (await import("../feedback/create-feedback-store.js")).createFeedbackStore(settings, { waitMs: 0 }) : undefined;
      const summary = await runIndex({
        paths,
        db: settings.db,
        strict: options.strict ?? false,
        risky: settings.risky,
        allowEmpty: options.allowEmpty ?? false,
        recalibrate: options.recalibrate ?? false,
        models: modelOptions(settings),
        expansion: {
          expander: settings.expander,
          llm: llmOptions(settings),
          onNotice: (message) => process.stderr.write(`${showProgress && process.stderr.isTTY ? "\n" : ""}note: ${message}\n`),
        },
        onProgress: progress.onProgress,
        ...(feedbackStore ? { feedbackStore } : {}),
      }).finally(() => feedbackStore?.close());
      progress.finish();
      process.stdout.write(options.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary, options.verbose ?? false));
      if (options.strict && summary.invalid.length > 0) process.exitCode = EXIT.INVALID_SKILLS;
    });
}

export function formatSummary(summary: IndexSummary, verbose: boolean): string {
  const lines = [
    ...(summary.damaged ? damagedLines(summary.damaged) : []),
    `Indexed ${summary.skills} skills into ${summary.db} (index version ${summary.indexVersion}) in ${(summary.durationMs / 1000).toFixed(1)} s`,
    `  added      ${summary.added.length}`,
    `  updated    ${summary.updated.length}`,
    `  unchanged  ${summary.unchanged}`,
    ...(summary.moved.length > 0 ? [`  moved      ${summary.moved.length} (same content at another path: paths updated, nothing embedded)`] : []),
    `  removed    ${summary.removed.length}`,
    `  embedded   ${summary.embedded}${summary.embedder ? ` (${summary.embedder})` : ""}`,
    `  manifests  ${formatExpansion(summary)}`,
    `  invalid    ${summary.invalid.length}`,
    `  warnings   ${summary.warnings.length}`,
    ...(summary.risky.length > 0 ? [`  risky      ${riskyCount(summary.risky)}`] : []),
  ];
  if (summary.calibration) lines.push(...calibrationLines(summary.calibration));
  if (summary.shareScale) lines.push(...shareScaleLines(summary.shareScale));
  if (summary.scope) {
    lines.push(`  in scope   ${indexScopeText(summary.scope)}`, "             (how sure the router must be that some skill applies before it injects one, learned from this index's own texts)");
  }
  if (summary.folded.store !== "index") lines.push(`  folded     ${summary.folded.rows} pieces of feedback from ${summary.folded.store}, up to its revision ${summary.folded.revision}`);
  if (summary.feedback.examples + summary.feedback.negatives > 0) lines.push(`  feedback   ${feedbackText(summary.feedback)}`);
  if (summary.refit) lines.push(`             decision refit from ${summary.refit.examples} confirmed requests and ${summary.refit.none} that no skill should answer`);
  if (summary.invalid.length > 0) lines.push("", "Invalid (not indexed):", ...problemLines(summary.invalid));
  if (summary.risky.length > 0) lines.push("", ...riskyLines(summary.risky, verbose));
  if (summary.warnings.length > 0) {
    const shown = verbose ? summary.warnings : summary.warnings.slice(0, LISTED_WARNINGS);
    lines.push("", "Warnings:", ...problemLines(shown));
    if (shown.length < summary.warnings.length) lines.push(`  ... ${summary.warnings.length - shown.length} more (--verbose lists them all)`);
  }
  if (verbose && summary.ignored.length > 0) lines.push("", "Ignored (not skill sources):", ...problemLines(summary.ignored));
  return `${lines.join("\n")}\n`;
}

/** The damaged file this run set aside, and what the index built anew lacks of it. */
function damagedLines({ problem, movedTo }: NonNullable<IndexSummary["damaged"]>): string[] {
  return [
    `The index file was damaged (SQLite finds: ${problem}): moved aside to ${movedTo}, and the index built anew.`,
    "Its feedback, `router fit`'s parameters and the manifests it kept are not in the new one; what survives of them may be read from the",
    `damaged file: \`router feedback export <file> --db ${movedTo}\`, \`router manifests export <folder> --db ${movedTo}\`.`,
    "",
  ];
}

/** "12 made (3 llm, 1 cached, 9 heuristic); 4 requests, 5,120 tokens in, 2,048 out" */
function formatExpansion(summary: IndexSummary): string {
  const report = summary.expansion;
  const made = Object.values(report.sources).reduce((sum, count) => sum + count, 0);
  const bySource = Object.entries(report.sources)
    .filter(([, count]) => count > 0)
    .map(([source, count]) => `${count} ${source}`);
  const parts = [`${made} made${bySource.length > 0 ? ` (${bySource.join(", ")})` : ""}`];
  if (summary.reexpanded.length > 0) parts.push(`${summary.reexpanded.length} of them for unchanged skills`);
  if (report.cacheHits > 0) parts.push(`${report.cacheHits} from the cache`);
  if (report.llm) {
    const format = (count: number): string => count.toLocaleString("en-US");
    parts.push(`${report.model}: ${format(report.llm.requests)} requests, ${format(report.llm.promptTokens)} tokens in, ${format(report.llm.completionTokens)} out`);
  }
  if (report.fallbacks.length > 0) parts.push(`${report.fallbacks.length} fell back to the heuristic`);
  return parts.join("; ");
}

/** The label-free calibration in a person's terms: what the index now does when nothing fits. */
function calibrationLines({ floor, absentRouted, everydayRouted }: EvidenceCalibration): string[] {
  const percent = (share: number): string => `${Math.round(share * 100)}%`;
  return [
    `  evidence   measured on ${floor.samples} requests whose skill was left out: BM25 floor ${floor.bm25.toFixed(2)}, dense floor ${floor.q2qMax.toFixed(2)}`,
    "             (the evidence floor: how closely a request matches a skill that is not the one it needs, by its words (BM25)",
    "             and by meaning (dense); a request is routed only when its best skill matches it better than that)",
    `             expected: ${percent(1 - absentRouted)} of requests whose skill is missing get none; ${percent(everydayRouted)} of everyday chat routes to a skill`,
  ];
}

/** What the index's feedback teaches it. */
function feedbackText(feedback: IndexSummary["feedback"]): string {
  return `${feedback.examples} requests from use are examples of their skill (${feedback.lone} not yet agreed with by another), ${feedback.negatives} are negatives of a skill injected wrongly`;
}

/** How far the index's confidences were flattened, and the evidence for it. */
function shareScaleLines(measure: ShareScaleMeasure): string[] {
  const verdict =
    measure.scale < 1 ? `confidences flattened (scale ${measure.scale.toFixed(2)}): this index's skills are harder to tell apart than the defaults assume` : "confidences as the defaults give them";
  return [
    `  shares     ${shareScaleBasis(measure)}; ${verdict}`,
    "             (a request held out: one of a skill's example requests, taken out of its manifest and routed as a user's;",
    "             the share scale softens every confidence when such requests often rank another skill first)",
  ];
}

/** "2 flagged: 1 indexed with a warning, 1 left out by --risky exclude" */
function riskyCount(risky: RiskyReport[]): string {
  const left = risky.filter((report) => report.excluded).length;
  const parts = [...(risky.length > left ? [`${risky.length - left} indexed with a warning`] : []), ...(left > 0 ? [`${left} left out by --risky exclude`] : [])];
  return `${risky.length} flagged: ${parts.join(", ")}`;
}

/** Each flagged skill with its file, then each flag's line, rule and what matched; the rules' meanings once, below. */
function riskyLines(risky: RiskyReport[], verbose: boolean): string[] {
  const lines = ["Risky (flagged by the risky-skill rules; review them before an agent follows them):"];
  for (const report of risky) {
    lines.push(`  ${report.name}${report.excluded ? " (left out)" : ""}: ${report.file}`);
    const shown = verbose ? report.flags : report.flags.slice(0, LISTED_FLAGS);
    lines.push(...shown.map((flag) => `    line ${flag.line}  ${flag.rule}: ${flag.excerpt}`));
    if (shown.length < report.flags.length) lines.push(`    ... ${report.flags.length - shown.length} more (--verbose lists them all)`);
  }
  const rules = [...new Set(risky.flatMap((report) => report.flags.map((flag) => flag.rule)))];
  lines.push("  Rules:", ...rules.map((rule) => `    ${rule}: ${RISK_MEANINGS[rule]}`));
  if (risky.some((report) => !report.excluded)) lines.push("  To leave flagged skills out of the index (never injected): router index --risky exclude");
  return lines;
}

function problemLines(problems: SkillProblem[]): string[] {
  return problems.map((problem) => `  ${problem.file}: ${problem.reason}`);
}
