import type { AnswerKind, ManifestTrack, TriggerCounts, TriggerDevFigures } from "./trigger-dev-eval.js";
import { tokenFigures, type EverydayCounts, type ReachCounts } from "./agent-reach.js";
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

const ANSWER_NAMES: Record<AnswerKind, string> = {
  answer: "the router's answer: inject, offer or none",
  injectOrNone: "inject or none (`offer: false`)",
  topThree: "always offer the top 3",
};

/** What reaches the agent under each answer, scored with the agent's judgments. */
export function reachTable(figures: TriggerDevFigures): string {
  const row = (kind: AnswerKind, counts: ReachCounts) => {
    const tokens = tokenFigures(counts.tokens);
    const sizes = Object.entries(counts.offerSizes)
      .map(([size, count]) => `${size}: ${count}`)
      .join(", ");
    return `| ${ANSWER_NAMES[kind]} | ${percent(counts.rightReached, counts.positives)} | ${percent(counts.ownLoaded, counts.negatives)} | ${percent(counts.anyLoaded, counts.negatives)} | ${Math.round(tokens.mean).toLocaleString("en-US")} / ${tokens.p95.toLocaleString("en-US")} | ${counts.injected} (${percent(counts.injectedRight, counts.injected)} right) | ${sizes || "-"} | ${counts.none} | ${counts.unjudged} |`;
  };
  return [
    "| answer | right skill reaches the agent | near miss: own skill loaded | near miss: any skill loaded | tokens added, mean / p95 | injected (of them right) | offers by size | none | listed but unjudged |",
    "|---|---|---|---|---|---|---|---|---|",
    ...(Object.keys(figures.reach) as AnswerKind[]).map((kind) => row(kind, figures.reach[kind])),
  ].join("\n");
}

/** Everyday requests that need no skill: how many get an offer or an injection, and the tokens that costs. */
export function everydayTable(figures: TriggerDevFigures): string {
  const row = (kind: "answer" | "injectOrNone", counts: EverydayCounts) =>
    `| ${ANSWER_NAMES[kind]} | ${counts.requests} | ${percent(counts.offered, counts.requests)} | ${percent(counts.injected, counts.requests)} | ${Math.round(tokenFigures(counts.tokens).mean)} |`;
  return ["| answer | requests | offered | injected | tokens added, mean |", "|---|---|---|---|---|", row("answer", figures.everyday.answer), row("injectOrNone", figures.everyday.injectOrNone)].join(
    "\n",
  );
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
    ...trigger.figures.flatMap((figures) => [
      `### ${TRACK_NAMES[figures.track]}, ${figures.distractorSet} distractors`,
      "",
      triggerDevTable(figures),
      "",
      "What reaches the agent (every request; the agent's choices from `agent-judgments.jsonl`):",
      "",
      reachTable(figures),
      "",
      "Everyday requests that need no skill (MetaTool's \"no tool needed\" and CLINC150's out-of-scope requests, routed against this index):",
      "",
      everydayTable(figures),
      "",
    ]),
    "",
    "**top-1**: the best-ranked skill is the expected one; **right skill injected**: the decision injected exactly it;",
    "near misses **routed to their own skill** injected the very skill they must not trigger; **routed to any skill**",
    "injected something (sometimes another skill is right for them, so this is an upper bound on the harm). These columns",
    "are the inject-or-none rule's (`offer: false`), as before offers.",
    "",
    "**What reaches the agent** scores each answer as the agent takes it, from a strong LLM's judgments of every request",
    "(`../shared/eval/trigger-dev/agent-judgments.jsonl`, never fitted on): an injected skill is used; from an offered list",
    "the agent loads its pick if listed, else the first listed skill it would also accept, else none. **Tokens added**: the",
    "offer's text (each skill's name and description, and how to load one) plus the body of what is loaded. A listed skill",
    "the judge was never shown counts as not loaded (**listed but unjudged**). Injections are right only for positives",
    "(a near miss's right skill is unknown).",
    "",
    runLine(trigger.run, "npm run bench -- --only trigger"),
    "",
  ].join("\n");
}
