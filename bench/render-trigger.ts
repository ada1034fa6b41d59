import type { ManifestTrack, TriggerCounts, TriggerDevFigures } from "./trigger-dev-eval.js";
import { runLine } from "./format-figures.js";
import type { RunInfo } from "./run-info.js";

export const TRIGGER_HEADING = "## Unseen skills: trigger-dev";

const TRACK_NAMES: Record<ManifestTrack, string> = { heuristic: "heuristic manifests", llm: "LLM manifests" };

const percent = (part: number, whole: number): string => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : "-");

/** The figures as a markdown table, one row for all cases and one per script. */
export function triggerDevTable(figures: TriggerDevFigures): string {
  const row = (label: string, counts: TriggerCounts) =>
    `| ${label} | ${counts.positives} | ${percent(counts.top1, counts.positives)} | ${percent(counts.injectedRight, counts.positives)} | ${counts.negatives} | ${percent(counts.negativesOwnSkill, counts.negatives)} | ${percent(counts.negativesAnySkill, counts.negatives)} |`;
  const { skills } = figures;
  return [
    `${skills.indexed} skills indexed: ${skills.evalSkillsIndexed} of trigger-dev's ${skills.evalSkills} and ${skills.distractors} distractors (${skills.invalid} refused, ${skills.warnings} warnings); positives whose skill is missing: ${figures.positivesOfMissingSkills}; ROC AUC of in_scope, positives against near misses: ${figures.inScopeAuc.toFixed(3)}; ECE of the best confidence, every case: ${figures.ece.toFixed(3)}; ${shareScaleText(figures.shareScale)}`,
    "",
    "| cases | positives | top-1 | right skill injected | near misses | routed to their own skill | routed to any skill |",
    "|---|---|---|---|---|---|---|",
    row("all", figures.all),
    row("Latin script", figures.byScript.latin),
    row("Chinese", figures.byScript.han),
    row("Korean", figures.byScript.hangul),
  ].join("\n");
}

function shareScaleText(measure: TriggerDevFigures["shareScale"]): string {
  if (!measure) return "no share scale (too few skills lend a request)";
  return `share scale ${measure.scale.toFixed(2)} (${percent(Math.round(measure.rankedFirst * measure.samples), measure.samples)} of ${measure.samples} requests held out of their skills ranked their own first)`;
}

/** The RESULTS.md section: what the table measures, the table, and how it was run. */
export function triggerSection(trigger: { run: RunInfo; figures: TriggerDevFigures[] }): string {
  return [
    TRIGGER_HEADING,
    "",
    "Real Agent Skills with the trigger evals their authors wrote (`../shared/eval/trigger-dev`: should-trigger queries and",
    "near misses that must not trigger their skill), indexed among distractor skills from `../shared/corpus/skills`",
    "exactly as a new user would: `router index` with default settings, no labels, no `router fit`. Two tracks:",
    "**heuristic manifests**, what a user without an LLM gets; **LLM manifests**, what a user with one gets: the manifests a",
    "strong LLM wrote for every skill of the curated index from the router's own expansion prompt",
    "(`../shared/eval/trigger-dev/llm-manifests.jsonl`), loaded as `router expand --import` loads them. This is a",
    "development set: design choices were tuned on it (the lexical prior of the defaults, the quantile of the evidence",
    "floor); no parameter was fitted on it. Two sets of distractors: **curated**, every collection but openclaw plus every",
    "20th openclaw skill (just over 1,000); **whole-corpus**, every skill of the corpus (about 2,800).",
    "",
    ...trigger.figures.flatMap((figures) => [`### ${TRACK_NAMES[figures.track]}, ${figures.distractorSet} distractors`, "", triggerDevTable(figures), ""]),
    "",
    "**top-1**: the best-ranked skill is the expected one; **right skill injected**: the decision injected exactly it;",
    "near misses **routed to their own skill** injected the very skill they must not trigger; **routed to any skill**",
    "injected something (sometimes another skill is right for them, so this is an upper bound on the harm).",
    "",
    runLine(trigger.run, "npm run bench -- --only trigger"),
    "",
  ].join("\n");
}
