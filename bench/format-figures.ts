import type { RunInfo } from "./run-info.js";

export const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** Milliseconds with the precision that matters at that size. */
export function ms(value: number): string {
  return value < 1 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

export function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n");
}

/** One line saying where, when and under what load a part ran. */
export function runLine(run: RunInfo, command: string): string {
  const load = `load average ${run.loadStart.toFixed(1)}${run.loadEnd !== undefined ? ` -> ${run.loadEnd.toFixed(1)}` : ""} on ${run.cores} cores (a shared machine)`;
  const took = run.seconds !== undefined ? `, took ${Math.round(run.seconds)} s` : "";
  return `Measured ${run.date.slice(0, 16).replace("T", " ")} UTC on ${run.cores} × ${run.cpu} (${run.memoryGb.toFixed(0)} GB), Node ${run.node}, embedder \`${run.embedder}\`, commit \`${run.commit}\`; ${load}${took}. Reproduce: \`${command}\`.`;
}
