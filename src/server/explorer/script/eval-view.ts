import type { EvalRunResponse } from "../eval-schemas.js";
import { call } from "./api.js";
import { byId, el } from "./dom.js";
import { showError } from "./error-message.js";
import { duration, fixed, percent, words } from "./format.js";
import { renderReliability } from "./reliability-chart.js";
import { showView } from "./tabs.js";

type EvalCase = EvalRunResponse["cases"][number];
type ConfusedPair = EvalRunResponse["confusion"][number];

export function setUpEvalView(): void {
  byId("eval-form", HTMLFormElement).addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = byId("eval-file", HTMLInputElement).files?.[0];
    if (!file) {
      showError("eval-error", new Error("choose an eval-set file first"));
      return;
    }
    const button = byId("eval-button", HTMLButtonElement);
    button.disabled = true;
    button.textContent = "Routing the cases…";
    try {
      const run = await call<EvalRunResponse>(`eval?split=${encodeURIComponent(byId("split", HTMLSelectElement).value)}`, { method: "POST", body: await file.text() });
      showError("eval-error", null);
      renderEval(run, file.name);
    } catch (error) {
      showError("eval-error", error);
      byId("eval-result", HTMLElement).hidden = true;
    } finally {
      button.disabled = false;
      button.textContent = "Run against this router";
    }
  });
}

function renderEval(run: EvalRunResponse, fileName: string): void {
  const { metrics } = run;
  const latency = metrics.latency_ms;
  const versions = run.index_versions;
  byId("eval-heading", HTMLElement).textContent =
    `${fileName}: ${metrics.cases} of ${run.set_cases} cases (${run.split}) in ${duration(run.duration_ms)}, index v${versions.join(", v")}${versions.length > 1 ? " (the index changed during the run)" : ""}`;
  const tiles = [
    ["top-1", percent(metrics.top1), `${metrics.in_scope} cases that need a skill`],
    ["recall@3", percent(metrics.recall_at_3), "expected skill among the best 3"],
    ["routed", percent(metrics.routed), "needed a skill and got one"],
    ["correct inject", percent(metrics.correct_inject), "got exactly the expected skill"],
    ["abstained", percent(metrics.abstain_recall), `${metrics.no_skill} cases that need none`],
    ["abstain precision", percent(metrics.abstain_precision), "answered none and needed none"],
    ["false triggers", percent(metrics.false_trigger), "injected when it should not"],
    ["ECE", fixed(metrics.ece, 3), "expected calibration error"],
    ["latency p50", `${fixed(latency.p50, 1)} ms`, `p95 ${fixed(latency.p95, 1)} ms`],
  ] as const;
  const summary = byId("eval-summary", HTMLElement);
  summary.replaceChildren();
  for (const [label, value, note] of tiles) {
    const tile = el("div", "tile");
    tile.dataset.metric = label;
    tile.append(el("div", "value", value), el("div", "label", `${label} · ${note}`));
    summary.append(tile);
  }
  renderConfusion(run.confusion);
  renderReliability(byId("reliability", SVGSVGElement), run.reliability);
  renderFailures(run.cases);
  byId("eval-result", HTMLElement).hidden = false;
}

const nameOrNone = (name: string | null): Node => (name === null ? el("span", "none", "none") : document.createTextNode(name));

function renderConfusion(pairs: ConfusedPair[]): void {
  const table = byId("confusion", HTMLTableElement);
  table.replaceChildren();
  if (pairs.length === 0) {
    table.append(row("td", ["no case went wrong"]));
    return;
  }
  table.append(row("th", ["expected", "answered", "cases", "for example"]));
  for (const pair of pairs.slice(0, 12)) {
    const cells = row("td", [nameOrNone(pair.expected), nameOrNone(pair.answered), String(pair.count), pair.queries.map((query) => `“${query}”`).join(" ")]);
    cells.children[2]!.className = "number";
    table.append(cells);
  }
}

function renderFailures(cases: EvalCase[]): void {
  const table = byId("failures", HTMLTableElement);
  table.replaceChildren();
  const wrong = cases.filter((item) => item.answered !== item.expected);
  if (wrong.length === 0) {
    table.append(row("td", ["none: every case was decided right"]));
    return;
  }
  table.append(row("th", ["message", "expected", "answered", "confidence", ""]));
  for (const item of wrong) {
    const answered = item.answered === null ? el("span", "none", `none${item.reason ? ` (${words(item.reason)})` : ""}`) : document.createTextNode(item.answered);
    const again = el("button", "", "route it");
    again.type = "button";
    again.addEventListener("click", () => {
      byId("query", HTMLTextAreaElement).value = item.query;
      showView("route");
      byId("route-form", HTMLFormElement).requestSubmit();
    });
    const cells = row("td", [item.query, nameOrNone(item.expected), answered, fixed(item.confidence), again]);
    cells.children[3]!.className = "number";
    table.append(cells);
  }
}

function row(cellTag: "td" | "th", cells: (string | Node)[]): HTMLTableRowElement {
  const tr = el("tr");
  for (const cell of cells) {
    const td = el(cellTag);
    if (cell instanceof Node) td.append(cell);
    else td.textContent = cell;
    tr.append(td);
  }
  return tr;
}
