import type { DatasetFigures, MethodFigures } from "./accuracy.js";
import { ms, percent, runLine, table } from "./format-figures.js";
import { METHODS, type MethodId } from "./method-catalogue.js";
import type { BenchResults } from "./results-store.js";

export const ACCURACY_HEADING = "## Routing accuracy";

/** Per eval set: in-scope accuracy and latency in one table, abstention and calibration in another. */
export function accuracySection(accuracy: NonNullable<BenchResults["accuracy"]>, chartFile: string): string {
  const lines = [
    ACCURACY_HEADING,
    "",
    "Every figure is on the **test half** of each eval set (`splitCases`, seed `skill-router`, 50%). The training halves",
    "fitted the default routing parameters (`bench/fit-defaults.ts`), the score thresholds of b and c, and `router fit` for g;",
    "no number below was measured on a case used to fit it. Cases with `candidates` (all of BFCL) are routed among those",
    "only. Latency is in-process and sequential, query embedding included unless the column says otherwise.",
    "",
    `![top-1 accuracy against p50 latency per method](${chartFile})`,
    "",
    "(In the chart, a point that would hide another is moved right by a few pixels; hover for the exact figures.)",
    "",
    ...accuracy.datasets.flatMap(datasetTables),
    "Methods:",
    "",
    ...Object.entries(METHODS).map(([id, method]) => `- **${id}) ${method.label}**: ${method.what}.`),
    "",
    "Columns: **top-1**, **recall@3**, **MRR@10** rank the in-scope cases (a skill applies); **routed** is the share of them",
    "that got a skill injected, **correct** the share that got the right one. **abstained** is the share of no-skill cases",
    "answered none; **precision** the share of none answers that were right; **false triggers** the share of all cases",
    "where a wrong skill was injected (a wrong skill, or any skill when none applied). **ECE**: expected calibration error",
    "of the best candidate's confidence (only the router has a probability to calibrate). The router's rows (d to i) are",
    "its inject-or-none rule (`offer: false`), comparable with earlier runs: what reaches an agent from its offers needs",
    "the agent's choices, which only trigger-dev has ([Unseen skills](#unseen-skills-trigger-dev)).",
    "",
    `Cross-encoder (f): ${accuracy.reranker}.`,
    "",
    runLine(accuracy.run, "npm run bench -- --only accuracy"),
    "",
  ];
  return lines.join("\n");
}

function datasetTables(dataset: DatasetFigures): string[] {
  const measured = dataset.methods.find((method) => method.metrics)?.metrics;
  const scope = measured ? `, ${measured.in_scope} in scope, ${measured.no_skill} need none` : "";
  const label = (method: MethodFigures) => `${method.id}) ${METHODS[method.id as MethodId].label}`;
  const skipped = (method: MethodFigures, columns: number) => [label(method), method.skipped!, ...Array.from({ length: columns - 2 }, () => "")];
  const inScope = dataset.methods.map((method) => {
    const metrics = method.metrics;
    if (!metrics) return skipped(method, 10);
    return [
      label(method),
      percent(metrics.top1),
      percent(metrics.recall_at_3),
      metrics.mrr.toFixed(3),
      percent(metrics.routed),
      percent(metrics.correct_inject),
      ms(metrics.latency_ms.p50),
      ms(metrics.latency_ms.p95),
      optionalMs(method.p50NoEmbedMs),
      optionalMs(method.p95NoEmbedMs),
    ];
  });
  const abstention = dataset.methods.map((method) => {
    const metrics = method.metrics;
    if (!metrics) return skipped(method, 5);
    return [label(method), percent(metrics.abstain_recall), percent(metrics.abstain_precision), percent(metrics.false_trigger), method.calibrated ? metrics.ece.toFixed(3) : "n/a"];
  });
  return [
    `### ${dataset.name}`,
    "",
    `${dataset.skills} skills; test half ${dataset.testCases} cases${scope} (training half ${dataset.trainCases}).`,
    "",
    table(["method", "top-1", "recall@3", "MRR@10", "routed", "correct", "p50 ms", "p95 ms", "p50 ms w/o embedding", "p95 ms w/o embedding"], inScope),
    "",
    table(["method", "abstained", "precision", "false triggers", "ECE"], abstention),
    "",
  ];
}

/** A figure older results may lack (recorded before the bench measured it). */
function optionalMs(value: number | undefined): string {
  return value === undefined ? "-" : ms(value);
}
