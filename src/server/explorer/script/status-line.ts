import type { Readiness } from "../../schemas.js";
import { apiError, send } from "./api.js";
import { byId } from "./dom.js";
import { explain } from "./error-message.js";
import { markRisks } from "./risky-skills.js";
import { loadSkillList } from "./skill-list.js";
import { weightsOf } from "./signal-words.js";

// What the router serves (its readiness answer), or why it cannot say.
export async function showStatus(): Promise<void> {
  const status = byId("status", HTMLElement);
  status.title = "";
  try {
    const { response, json } = await send("readyz");
    if (response.status === 401) throw apiError(response, json);
    const ready = json as Readiness | undefined;
    if (!ready?.ready || !ready.index) {
      status.textContent = ready?.error ? `not ready: ${ready.error.message}` : "loading the index and models…";
      status.className = "problem";
      return;
    }
    const { index } = ready;
    status.textContent = `ready · ${index.skills} skills · index v${index.version} · ${index.embedder} · ${ready.reranker ? `reranker ${ready.reranker}` : "no reranker"} · ${weightsOf(index.fusion)}`;
    status.title = `fusion: ${index.fusion}`;
    status.className = "";
    markRisks(await loadSkillList());
  } catch (error) {
    status.textContent = explain(error);
    status.className = "problem";
  }
}
