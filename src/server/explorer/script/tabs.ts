import { byId } from "./dom.js";

export type View = "route" | "eval";

export function showView(name: View): void {
  byId("view-route", HTMLElement).hidden = name !== "route";
  byId("view-eval", HTMLElement).hidden = name !== "eval";
  byId("tab-route", HTMLButtonElement).setAttribute("aria-pressed", String(name === "route"));
  byId("tab-eval", HTMLButtonElement).setAttribute("aria-pressed", String(name === "eval"));
}

export function setUpTabs(): void {
  byId("tab-route", HTMLButtonElement).addEventListener("click", () => showView("route"));
  byId("tab-eval", HTMLButtonElement).addEventListener("click", () => showView("eval"));
}
