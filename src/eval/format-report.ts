import type { RankedSkill } from "../contract/route.js";
import type { EvalReport } from "./evaluate-file.js";
import type { Failure } from "./failures.js";
import type { GateResult } from "./gates.js";
import { triggerAccuracy } from "./trigger-view.js";
import { matchedTerms } from "../contract/matched-terms.js";
import { missingEvidence, nearMissNamed, notRetrieved } from "../contract/missing-evidence.js";

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The eval report a person reads: cases, in-scope accuracy, abstention, calibration, latency. */
export function formatReport(report: EvalReport): string {
  const { metrics } = report;
  const lines: string[] = [];
  const split = report.split === "all" ? "all cases" : `${report.split} split`;
  const subject = report.skill ? `trigger evals for ${report.skill}` : "eval set";
  lines.push(
    `${report.file} (${subject}, ${split}): ${metrics.cases} cases, ${metrics.in_scope} ${report.skill ? "should trigger" : "in scope"}, ${metrics.no_skill} ${report.skill ? "should not" : "need none"}`,
  );
  lines.push(
    `  index ${report.db}${report.indexed ? ` (${report.indexed.embedded > 0 ? `indexed ${report.indexed.embedded} skills in ${(report.indexed.durationMs / 1000).toFixed(1)} s` : "cached, up to date"})` : ""}`,
  );
  if (metrics.in_scope > 0) {
    lines.push(
      report.skill
        ? `  should trigger  ranked first ${percent(metrics.top1)}  in top 3 ${percent(metrics.recall_at_3)}  MRR@10 ${metrics.mrr.toFixed(3)}  triggered ${percent(metrics.correct_inject)}`
        : `  in scope     top-1 ${percent(metrics.top1)}  recall@3 ${percent(metrics.recall_at_3)}  MRR@10 ${metrics.mrr.toFixed(3)}  routed ${percent(metrics.routed)}  correct inject ${percent(metrics.correct_inject)}`,
    );
  }
  if (metrics.no_skill > 0) {
    lines.push(
      report.skill
        ? `  should not     not triggered ${percent(metrics.abstain_recall)}${report.routedElsewhere ? ` (${report.routedElsewhere} of them went to other skills)` : ""}`
        : `  abstention   recall ${percent(metrics.abstain_recall)} (needed none, answered none)  precision ${percent(metrics.abstain_precision)} (answered none, needed none)`,
    );
  }
  if (metrics.in_scope > 0 && metrics.offered > 0) {
    lines.push(
      `  offers       ${percent(metrics.offered)} of in-scope cases offered a list (${metrics.offer_size.toFixed(1)} skills on average), holding the right skill for ${percent(metrics.right_offered)}; the right skill reaches the agent (injected or listed) for ${percent(metrics.reachable)}`,
    );
  }
  if (metrics.no_skill > 0) lines.push(`  no skill     ${percent(metrics.no_skill_answered)} of the cases that need none got an offer or an injection`);
  if (report.skill) lines.push(`  decided right  ${percent(triggerAccuracy(metrics))} of all cases (triggered when it should, not when it should not)`);
  lines.push(`  false triggers ${percent(metrics.false_trigger)} of all cases  ECE ${metrics.ece.toFixed(3)}`);
  lines.push(`  latency      p50 ${ms(metrics.latency_ms.p50)}  p95 ${ms(metrics.latency_ms.p95)}  p99 ${ms(metrics.latency_ms.p99)} (in-process, query embedding included)`);
  return `${lines.join("\n")}\n`;
}

export function formatGates(results: GateResult[]): string {
  const lines = results.map((result) => {
    const actual = result.actual === null ? "nothing to measure" : result.gate === "--max-p95-ms" ? ms(result.actual) : result.actual.toFixed(3);
    return `  ${result.passed ? "pass" : "FAIL"}  ${result.gate} ${result.limit}: ${actual}`;
  });
  return `gates\n${lines.join("\n")}\n`;
}

/** Each failure with the evidence: what was injected or why none, the best candidates' signals, matched words and nearest example. */
export function formatFailures(failures: Failure[]): string {
  if (failures.length === 0) return "failures: none\n";
  const lines = [`failures (${failures.length})`];
  for (const failure of failures) {
    const answer = failure.injected.length > 0 ? `injected ${failure.injected.join(", ")}` : `none (${whyNone(failure)})`;
    lines.push(`  [${failure.kind}] "${truncate(failure.query, 100)}"`);
    lines.push(`     expected ${failure.expected ?? "none"}${failure.expected ? ` (rank ${failure.expectedRank ?? "> 10"})` : ""}, ${answer}`);
    for (const candidate of failure.candidates) lines.push(`     ${describeCandidate(candidate)}`);
  }
  return `${lines.join("\n")}\n`;
}

function whyNone(failure: Failure): string {
  if (failure.reason === "below_threshold") return `in scope ${failure.inScope.toFixed(2)} < threshold ${failure.threshold.toFixed(2)}`;
  if (failure.reason === "no_evidence") return `no evidence: ${missingEvidence({ skills: failure.candidates, evidence_floor: failure.evidenceFloor })}`;
  if (failure.reason === "not_retrieved") return `not retrieved: ${notRetrieved({ skills: failure.candidates })}`;
  if (failure.reason === "near_miss") return `near miss: ${nearMissNamed({ skills: failure.candidates })}`;
  return `${(failure.reason ?? "").replace(/_/g, " ")}, in scope ${failure.inScope.toFixed(2)}`;
}

function describeCandidate(candidate: RankedSkill): string {
  const { signals } = candidate;
  const parts = [
    `${candidate.name} ${candidate.confidence.toFixed(2)}`,
    `q2q ${signals.q2q_max.toFixed(2)} q2d ${signals.q2d.toFixed(2)} bm25 ${signals.bm25.toFixed(2)} kw ${signals.keyword_hits} ph ${signals.phrase_hits}${signals.negative > 0 ? ` neg ${signals.negative.toFixed(2)}` : ""}${signals.rerank !== undefined ? ` rerank ${signals.rerank.toFixed(2)}` : ""}`,
  ];
  const matched = matchedTerms(candidate);
  if (matched.length > 0) parts.push(`matched: ${matched.slice(0, 5).join(", ")}`);
  if (candidate.nearest_query) parts.push(`like: "${truncate(candidate.nearest_query, 60)}"${candidate.nearest_from_use ? " (from use)" : ""}`);
  return parts.join("  ");
}

function truncate(text: string, length: number): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}
