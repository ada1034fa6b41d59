import type { FeedbackRequest, FeedbackResult } from "../../../contract/feedback.js";
import type { RouteResult } from "../../../contract/route.js";
import { call } from "./api.js";
import { byId, el } from "./dom.js";
import { showError } from "./error-message.js";
import { skillList } from "./skill-list.js";

// Who the router records as the source of this page's feedback (X-Router-Client).
const CLIENT_NAME = "explorer";

/** The answer the control is about: the message as it was routed (the field may have changed since) and what came back. */
let answered: { query: string; result: RouteResult } | undefined;

/**
 * The "right / wrong, it should be ..." control under each routed answer. "Right" confirms what was injected (or that
 * none was); "wrong" names the skill it should have been, from the ranked list or by name, or none. Either is sent to
 * POST /feedback with the answer's route_id, and what the router stored is shown.
 */
export function setUpFeedbackControl(): void {
  const correction = byId("feedback-correction", HTMLFormElement);
  byId("feedback-right", HTMLButtonElement).addEventListener("click", () => {
    if (answered) void send(answered.result.selected[0] ?? null);
  });
  byId("feedback-wrong", HTMLButtonElement).addEventListener("click", () => {
    showCorrection(correction.hidden !== false);
    if (correction.hidden === false) void listSkillNames();
  });
  correction.addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = byId("feedback-name", HTMLInputElement).value.trim();
    const picked = byId("feedback-skill", HTMLSelectElement).value;
    void send(typed !== "" ? typed : picked === "" ? null : picked);
  });
}

/**
 * Resets the control for a new answer: the other choices are its ranked skills, and none when it injected or offered
 * some. An offer is right or wrong only by which skill fits, so it has no "Right" button: the person names the skill.
 */
export function renderFeedbackControl(query: string, result: RouteResult): void {
  answered = { query, result };
  const injected = result.selected[0];
  const choices = byId("feedback-skill", HTMLSelectElement);
  choices.replaceChildren(
    ...result.skills.filter((skill) => skill.name !== injected).map((skill) => new Option(skill.name, skill.name)),
    ...(result.decision === "none" ? [] : [new Option("none: no skill should answer it", "")]),
  );
  byId("feedback-right", HTMLButtonElement).hidden = result.decision === "offer";
  byId("feedback-wrong", HTMLButtonElement).textContent = result.decision === "offer" ? "The right one is…" : "Wrong, it should be…";
  byId("feedback-name", HTMLInputElement).value = "";
  showCorrection(false);
  byId("feedback-note", HTMLElement).hidden = true;
  showError("feedback-error", null);
}

async function send(skill: string | null): Promise<void> {
  if (!answered) return;
  const request: FeedbackRequest = { query: answered.query, skill, route_id: answered.result.route_id };
  const note = byId("feedback-note", HTMLElement);
  try {
    const { stored, duplicate, applies } = await call<FeedbackResult>("feedback", { method: "POST", body: JSON.stringify(request), headers: { "x-router-client": CLIENT_NAME } });
    showError("feedback-error", null);
    note.replaceChildren(el("strong", "", duplicate ? `already said (#${stored.id}, ${stored.times} times)` : `stored #${stored.id}`), `: ${stored.note}${duplicate ? "" : `; applies ${applies}`}.`);
    note.hidden = false;
    showCorrection(false);
  } catch (error) {
    note.hidden = true;
    showError("feedback-error", error);
  }
}

function showCorrection(open: boolean): void {
  byId("feedback-correction", HTMLFormElement).hidden = !open;
  byId("feedback-wrong", HTMLButtonElement).setAttribute("aria-expanded", String(open));
}

/** Every indexed skill's name, offered as the name field is typed in; an empty list still takes any name (the router suggests near ones). */
async function listSkillNames(): Promise<void> {
  const skills = await skillList();
  byId("feedback-names", HTMLDataListElement).replaceChildren(...skills.map((skill) => new Option(skill.name)));
}
