import { matchedTerms } from "../../../contract/matched-terms.js";
import type { RankedSkill, RouteRequest, RouteResult } from "../../../contract/route.js";
import { call } from "./api.js";
import { byId, el } from "./dom.js";
import { showError } from "./error-message.js";
import { renderFeedbackControl } from "./feedback-control.js";
import { fixed, words } from "./format.js";
import { riskBadge } from "./risky-skills.js";
import { signalWords } from "./signal-words.js";

export function setUpRouteView(): void {
  const form = byId("route-form", HTMLFormElement);
  byId("query", HTMLTextAreaElement).addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const query = byId("query", HTMLTextAreaElement).value;
    if (query.trim() === "") return;
    const k = Number(byId("k", HTMLInputElement).value) || undefined;
    const thresholdField = byId("threshold", HTMLInputElement);
    const threshold = thresholdField.value === "" ? undefined : Number(thresholdField.value);
    const button = byId("route-button", HTMLButtonElement);
    button.disabled = true;
    try {
      const request: RouteRequest = { query, k, threshold, include: ["body"] };
      const result = await call<RouteResult>("route", { method: "POST", body: JSON.stringify(request) });
      showError("route-error", null);
      renderRoute(result);
      renderFeedbackControl(query, result);
    } catch (error) {
      showError("route-error", error);
      byId("route-result", HTMLElement).hidden = true;
    } finally {
      button.disabled = false;
    }
  });
}

function renderRoute(result: RouteResult): void {
  const { skills, selected } = result;
  const decision = byId("decision", HTMLElement);
  decision.replaceChildren();
  decision.className = `decision ${result.decision}`;
  if (result.decision === "inject") {
    decision.append("inject ", el("strong", "", selected.join(", ")));
    if (result.invoked) decision.append(" ", el("span", "why invoked", `(the message calls ${result.invoked} by name)`));
  } else if (result.offer) {
    decision.append("offer ", el("strong", "", result.offer.skills.map((skill) => skill.name).join(", ")), " for the agent to choose from");
    if (result.reason) decision.append(" ", el("span", "why reason", `(${words(result.reason)})`));
  } else {
    decision.append(el("strong", "", result.decision));
    if (result.reason) decision.append(" ", el("span", "why reason", words(result.reason)));
    if (result.reason === "no_evidence" && result.evidence_floor) {
      // What requests no skill fits reach on this index: the best skill's BM25 and similarity bars are read against it.
      const floor = result.evidence_floor;
      decision.append(" ", el("span", "why floor", `(this index's floor: BM25 ${fixed(floor.bm25)}; similarity ${fixed(floor.q2q_max)} when no word matches)`));
    }
  }
  renderScope(result, skills);
  renderPromptAdded(result);

  const list = byId("ranked", HTMLOListElement);
  list.replaceChildren();
  // Bars share one scale per signal: 0 to 1, or to the largest value among these candidates when a signal counts.
  const scale: Record<string, number> = {};
  for (const skill of skills) for (const [name, value] of Object.entries(skill.signals)) scale[name] = Math.max(scale[name] || 1, typeof value === "number" ? value : 0);
  const chosen = result.offer ? result.offer.skills.map((skill) => skill.name) : selected;
  skills.forEach((skill, index) => list.append(renderSkill(skill, index, chosen.includes(skill.name), scale)));

  const meta = [`index v${result.index_version}`, result.embedder, `reranker ${result.reranker || "none"}`, `${fixed(result.timing_ms.total, 1)} ms`];
  byId("route-meta", HTMLElement).textContent = meta.join(" · ") + (result.warnings.length > 0 ? ` · ${result.warnings.join("; ")}` : "");
  byId("route-result", HTMLElement).hidden = false;
}

/** What the answer adds to the agent's prompt, and its tokens: the injected instructions, the offered list, or nothing. */
function renderPromptAdded(result: RouteResult): void {
  const added = byId("prompt-added", HTMLElement);
  added.replaceChildren();
  if (result.decision === "inject") {
    const tokens = result.skills.filter((skill) => result.selected.includes(skill.name)).reduce((sum, skill) => sum + skill.tokens, 0);
    added.append(el("span", "", `adds to the agent's prompt: the instructions of ${result.selected.join(", ")}, +${tokens} tokens`));
  } else if (result.offer) {
    const holds = result.offer.holds_right_skill;
    added.append(
      el(
        "span",
        "",
        `adds to the agent's prompt, +${result.offer.tokens} tokens${holds === null ? "" : ` (lists like it held the right skill for ${Math.round(holds * 100)}% of this index's held-out requests)`}:`,
      ),
      el("pre", "offer-text", result.offer.text),
    );
  } else {
    added.append(el("span", "", "adds nothing to the agent's prompt"));
  }
}

function renderScope(result: RouteResult, skills: RankedSkill[]): void {
  const scope = byId("scope", HTMLElement);
  scope.replaceChildren();
  const gauge = (value: number | undefined, mark: number) => {
    const box = el("div", "gauge");
    const fill = el("div", "fill");
    fill.style.width = `${Math.max(0, Math.min(1, value || 0)) * 100}%`;
    const line = el("div", "mark");
    line.style.left = `${Math.max(0, Math.min(1, mark)) * 100}%`;
    line.title = `threshold ${fixed(mark)}`;
    box.append(fill, line);
    return box;
  };
  scope.append(el("span", "", "in scope"), gauge(result.in_scope, result.threshold), el("span", "threshold", `${fixed(result.in_scope)} (threshold ${fixed(result.threshold)})`));
  const [best, runnerUp] = skills;
  const lead = best && runnerUp ? best.confidence - runnerUp.confidence : best?.confidence;
  scope.append(el("span", "", "lead over runner-up"), gauge(lead, result.min_margin), el("span", "margin", `${fixed(lead)} (margin ${fixed(result.min_margin)})`));
}

function renderSkill(skill: RankedSkill, index: number, isSelected: boolean, scale: Record<string, number>): HTMLLIElement {
  const item = el("li", `skill${isSelected ? " selected" : ""}`);
  const head = el("div", "skill-head");
  head.append(
    el("span", "rank", `#${index + 1}`),
    el("span", "name", skill.name),
    el("span", "kind", skill.kind),
    el("span", "confidence", `confidence ${fixed(skill.confidence)}`),
    el("span", "share", `share ${fixed(skill.share)}`),
    el("span", "tokens", `+${skill.tokens} tokens`),
  );
  const badge = riskBadge(skill.name);
  if (badge) head.append(badge);
  item.append(head, el("p", "description", skill.description));

  const signals = el("div", "signals");
  for (const [name, value] of Object.entries(skill.signals)) {
    const row = el("div", `signal${/negative|penalty/.test(name) ? " penalty" : ""}`);
    const bar = el("div", "bar");
    const fill = el("span");
    fill.style.width = `${(typeof value === "number" ? Math.max(0, value) / (scale[name] ?? 1) : 0) * 100}%`;
    bar.append(fill);
    const label = el("span", "signal-name", signalWords(name));
    label.title = name;
    row.append(label, bar, el("span", "signal-value", typeof value === "number" ? (Number.isInteger(value) ? String(value) : fixed(value)) : String(value)));
    signals.append(row);
  }
  item.append(signals);

  // A quoted word is often both a keyword and a phrase, and a plural is listed beside its singular: shown once, as the CLI shows them.
  const matchedWords = matchedTerms(skill);
  if (matchedWords.length > 0) {
    const line = el("p", "evidence matched");
    line.append(el("span", "label", "matched "));
    for (const word of matchedWords) line.append(el("span", "chip", word));
    item.append(line);
  }
  if (skill.nearest_query) {
    const line = el("p", "evidence nearest");
    line.append(el("span", "label", skill.nearest_from_use ? "nearest request confirmed from use " : "nearest synthetic query "), el("q", "", skill.nearest_query));
    item.append(line);
  }
  if (skill.negative) {
    const line = el("p", "evidence near-miss");
    line.append(el("span", "label", "negative that fired "), el("q", "", skill.negative));
    item.append(line);
  }
  if (typeof skill.body === "string") {
    const details = el("details", "body");
    details.open = isSelected;
    details.append(el("summary", "", `what would be injected (${skill.tokens} tokens)`), el("pre", "", skill.body));
    item.append(details);
  }
  return item;
}
