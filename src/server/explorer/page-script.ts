/**
 * The explorer's browser script, served as a file of its own (the CSP runs no inline script). Plain JavaScript in a
 * string because `npm run build` is tsc alone; written without backticks or dollar-brace so the string needs no escapes.
 */
export const EXPLORER_SCRIPT = String.raw`
// The one place that knows the API's field names: when a response renames a field, change it here only.
const FIELDS = {
  routeRequest: { query: "query", k: "k", threshold: "threshold", include: "include" },
  route: { decision: "decision", selected: "selected", skills: "skills", reason: "reason", inScope: "in_scope", threshold: "threshold", minMargin: "min_margin", evidenceFloor: "evidence_floor", invoked: "invoked", warnings: "warnings", timing: "timing_ms", indexVersion: "index_version", embedder: "embedder", reranker: "reranker" },
  skill: { name: "name", kind: "kind", description: "description", confidence: "confidence", share: "share", tokens: "tokens", signals: "signals", matched: "matched", nearestQuery: "nearest_query", negative: "negative", body: "body" },
  evidenceFloor: { bm25: "bm25", q2qMax: "q2q_max" },
  timing: { total: "total" },
  ready: { ready: "ready", index: "index", reranker: "reranker", error: "error" },
  index: { version: "version", skills: "skills", embedder: "embedder", fusion: "fusion" },
  evalRun: { split: "split", setCases: "set_cases", metrics: "metrics", confusion: "confusion", reliability: "reliability", cases: "cases", indexVersions: "index_versions", durationMs: "duration_ms" },
  metrics: { cases: "cases", inScope: "in_scope", noSkill: "no_skill", top1: "top1", recallAt3: "recall_at_3", mrr: "mrr", routed: "routed", correctInject: "correct_inject", abstainPrecision: "abstain_precision", abstainRecall: "abstain_recall", falseTrigger: "false_trigger", ece: "ece", latency: "latency_ms" },
  pair: { expected: "expected", answered: "answered", count: "count", queries: "queries" },
  bin: { low: "low", high: "high", cases: "cases", confidence: "confidence", accuracy: "accuracy" },
  evalCase: { query: "query", expected: "expected", answered: "answered", top: "top", confidence: "confidence", reason: "reason" },
  error: { code: "code", message: "message" },
};
const read = (object, kind) => {
  const view = {};
  for (const [name, field] of Object.entries(FIELDS[kind])) view[name] = object == null ? undefined : object[field];
  return view;
};
const request = (kind, values) => {
  const body = {};
  for (const [name, value] of Object.entries(values)) if (value !== undefined) body[FIELDS[kind][name]] = value;
  return body;
};

const KEY_STORAGE = "skill-router-explorer-key";
const $ = (id) => document.getElementById(id);
const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};
// Rounded without a minus sign on zero (a cosine of -0.001 reads 0.00).
const fixed = (value, digits) => (typeof value === "number" ? value.toFixed(digits === undefined ? 2 : digits).replace(/^-(0\.?0*)$/, "$1") : "–");
const duration = (ms) => (ms < 1000 ? Math.round(ms) + " ms" : (ms / 1000).toFixed(1) + " s");
const percent = (share) => (typeof share === "number" ? (share * 100).toFixed(1) + "%" : "–");
const words = (code) => String(code).replace(/_/g, " ");

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// The key lives in this tab's sessionStorage and travels only as a Bearer header, never in a URL.
const keyInput = $("key");
keyInput.value = sessionStorage.getItem(KEY_STORAGE) || "";
keyInput.addEventListener("change", () => {
  const key = keyInput.value.trim();
  if (key) sessionStorage.setItem(KEY_STORAGE, key);
  else sessionStorage.removeItem(KEY_STORAGE);
  showStatus();
});

function headers(hasBody) {
  const list = { accept: "application/json" };
  if (hasBody) list["content-type"] = "application/json";
  const key = keyInput.value.trim();
  if (key) list.authorization = "Bearer " + key;
  return list;
}

async function send(path, options) {
  const response = await fetch(path, Object.assign({ headers: headers(Boolean(options && options.body !== undefined)) }, options || {}));
  let json;
  try {
    json = await response.json();
  } catch (error) {
    json = undefined;
  }
  return { response: response, json: json };
}

function apiError(response, json) {
  const problem = read(json && json.error, "error");
  return new ApiError(response.status, problem.code || "HTTP_" + response.status, problem.message || "The server answered " + response.status + " without a JSON error");
}

// The JSON of a successful answer; any other answer becomes an ApiError with the server's code and message.
async function call(path, options) {
  const { response, json } = await send(path, options);
  if (response.ok && json !== undefined) return json;
  throw apiError(response, json);
}

function explain(error) {
  if (error instanceof ApiError && error.code === "API_KEY_INVALID") return "The router refused this API key (" + error.code + "): check the API key field above.";
  if (error instanceof ApiError && error.status === 401) return "This router needs its API key: paste it in the API key field above (" + error.code + ").";
  if (error instanceof ApiError) return error.message + " (" + error.code + ")";
  return "The router did not answer: " + error.message;
}

function showError(id, error) {
  const box = $(id);
  box.textContent = error ? explain(error) : "";
  box.hidden = !error;
  if (error instanceof ApiError && error.status === 401) keyInput.focus();
}

// Status line: what the router serves (its readiness answer), or why it cannot say.
async function showStatus() {
  const status = $("status");
  try {
    const { response, json } = await send("readyz");
    if (response.status === 401) throw apiError(response, json);
    const ready = read(json, "ready");
    if (!ready.ready) {
      status.textContent = ready.error ? "not ready: " + read(ready.error, "error").message : "loading the index and models…";
      status.className = "problem";
      return;
    }
    const index = read(ready.index, "index");
    status.textContent = "ready · " + index.skills + " skills · index v" + index.version + " · " + index.embedder + " · " + (ready.reranker ? "reranker " + ready.reranker : "no reranker") + " · fusion: " + index.fusion;
    status.className = "";
  } catch (error) {
    status.textContent = explain(error);
    status.className = "problem";
  }
}

// Views
const views = { route: $("view-route"), eval: $("view-eval") };
function showView(name) {
  for (const [key, section] of Object.entries(views)) section.hidden = key !== name;
  $("tab-route").setAttribute("aria-pressed", String(name === "route"));
  $("tab-eval").setAttribute("aria-pressed", String(name === "eval"));
}
$("tab-route").addEventListener("click", () => showView("route"));
$("tab-eval").addEventListener("click", () => showView("eval"));

// Route view
$("query").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    $("route-form").requestSubmit();
  }
});
$("route-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const query = $("query").value;
  if (query.trim() === "") return;
  const k = Number($("k").value) || undefined;
  const threshold = $("threshold").value === "" ? undefined : Number($("threshold").value);
  const button = $("route-button");
  button.disabled = true;
  try {
    const json = await call("route", { method: "POST", body: JSON.stringify(request("routeRequest", { query: query, k: k, threshold: threshold, include: ["body"] })) });
    showError("route-error", null);
    renderRoute(read(json, "route"));
  } catch (error) {
    showError("route-error", error);
    $("route-result").hidden = true;
  } finally {
    button.disabled = false;
  }
});

function renderRoute(result) {
  const skills = (result.skills || []).map((skill) => read(skill, "skill"));
  const selected = result.selected || [];
  const decision = $("decision");
  decision.replaceChildren();
  decision.className = "decision " + result.decision;
  if (result.decision === "inject") {
    decision.append("inject ", el("strong", "", selected.join(", ")));
    if (result.invoked) decision.append(" ", el("span", "why invoked", "(the message calls " + result.invoked + " by name)"));
  } else {
    decision.append(el("strong", "", result.decision));
    if (result.reason) decision.append(" ", el("span", "why reason", words(result.reason)));
    if (result.reason === "no_evidence" && result.evidenceFloor) {
      // What requests no skill fits reach on this index: the best skill's BM25 and similarity bars are read against it.
      const floor = read(result.evidenceFloor, "evidenceFloor");
      decision.append(" ", el("span", "why floor", "(this index's floor: BM25 " + fixed(floor.bm25) + "; similarity " + fixed(floor.q2qMax) + " when no word matches)"));
    }
  }
  renderScope(result, skills);

  const list = $("ranked");
  list.replaceChildren();
  // Bars share one scale per signal: 0 to 1, or to the largest value among these candidates when a signal counts.
  const scale = {};
  for (const skill of skills) for (const [name, value] of Object.entries(skill.signals || {})) scale[name] = Math.max(scale[name] || 1, typeof value === "number" ? value : 0);
  skills.forEach((skill, index) => list.append(renderSkill(skill, index, selected.includes(skill.name), scale)));

  const timing = read(result.timing, "timing");
  const meta = ["index v" + result.indexVersion, result.embedder, "reranker " + (result.reranker || "none"), fixed(timing.total, 1) + " ms"];
  $("route-meta").textContent = meta.join(" · ") + ((result.warnings || []).length > 0 ? " · " + result.warnings.join("; ") : "");
  $("route-result").hidden = false;
}

function renderScope(result, skills) {
  const scope = $("scope");
  scope.replaceChildren();
  const gauge = (value, mark) => {
    const box = el("div", "gauge");
    const fill = el("div", "fill");
    fill.style.width = Math.max(0, Math.min(1, value || 0)) * 100 + "%";
    box.append(fill);
    if (mark !== undefined) {
      const line = el("div", "mark");
      line.style.left = Math.max(0, Math.min(1, mark)) * 100 + "%";
      line.title = "threshold " + fixed(mark);
      box.append(line);
    }
    return box;
  };
  scope.append(el("span", "", "in scope"), gauge(result.inScope, result.threshold), el("span", "threshold", fixed(result.inScope) + " (threshold " + fixed(result.threshold) + ")"));
  const lead = skills.length > 1 ? skills[0].confidence - skills[1].confidence : skills.length === 1 ? skills[0].confidence : undefined;
  scope.append(el("span", "", "lead over runner-up"), gauge(lead, result.minMargin), el("span", "margin", fixed(lead) + " (margin " + fixed(result.minMargin) + ")"));
}

function renderSkill(skill, index, isSelected, scale) {
  const item = el("li", "skill" + (isSelected ? " selected" : ""));
  const head = el("div", "skill-head");
  head.append(el("span", "rank", "#" + (index + 1)), el("span", "name", skill.name), el("span", "kind", skill.kind), el("span", "confidence", "confidence " + fixed(skill.confidence)), el("span", "share", "share " + fixed(skill.share)), el("span", "tokens", "+" + skill.tokens + " tokens"));
  item.append(head, el("p", "description", skill.description || ""));

  const signals = el("div", "signals");
  for (const [name, value] of Object.entries(skill.signals || {})) {
    const row = el("div", "signal" + (/negative|penalty/.test(name) ? " penalty" : ""));
    const bar = el("div", "bar");
    const fill = el("span");
    fill.style.width = (typeof value === "number" ? Math.max(0, value) / scale[name] : 0) * 100 + "%";
    bar.append(fill);
    row.append(el("span", "signal-name", name), bar, el("span", "signal-value", typeof value === "number" ? (Number.isInteger(value) ? String(value) : fixed(value)) : String(value)));
    signals.append(row);
  }
  item.append(signals);

  const matched = skill.matched || {};
  // A quoted word is often both a keyword and a phrase, and a plural is listed beside its singular: shown once, as
  // src/contract/matched-terms.ts does for the CLI.
  const terms = [...new Set([].concat(...Object.values(matched).filter(Array.isArray)))];
  const listed = new Set(terms);
  const singularsOf = (term) => [term.endsWith("s") ? term.slice(0, -1) : "", term.endsWith("es") ? term.slice(0, -2) : "", term.endsWith("ies") ? term.slice(0, -3) + "y" : ""];
  const matchedWords = terms.filter((term) => !singularsOf(term).some((singular) => singular !== "" && listed.has(singular)));
  if (matchedWords.length > 0) {
    const line = el("p", "evidence matched");
    line.append(el("span", "label", "matched "));
    for (const word of matchedWords) line.append(el("span", "chip", word));
    item.append(line);
  }
  if (skill.nearestQuery) {
    const line = el("p", "evidence nearest");
    line.append(el("span", "label", "nearest synthetic query "), el("q", "", skill.nearestQuery));
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
    details.append(el("summary", "", "what would be injected (" + skill.tokens + " tokens)"), el("pre", "", skill.body));
    item.append(details);
  }
  return item;
}

// Eval view
$("eval-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $("eval-file").files[0];
  if (!file) {
    showError("eval-error", new Error("choose an eval-set file first"));
    return;
  }
  const button = $("eval-button");
  button.disabled = true;
  button.textContent = "Routing the cases…";
  try {
    const json = await call("eval?split=" + encodeURIComponent($("split").value), { method: "POST", body: await file.text() });
    showError("eval-error", null);
    renderEval(read(json, "evalRun"), file.name);
  } catch (error) {
    showError("eval-error", error);
    $("eval-result").hidden = true;
  } finally {
    button.disabled = false;
    button.textContent = "Run against this router";
  }
});

function renderEval(run, fileName) {
  const metrics = read(run.metrics, "metrics");
  const latency = metrics.latency || {};
  const versions = run.indexVersions || [];
  $("eval-heading").textContent = fileName + ": " + metrics.cases + " of " + run.setCases + " cases (" + run.split + ") in " + duration(run.durationMs) + ", index v" + versions.join(", v") + (versions.length > 1 ? " (the index changed during the run)" : "");
  const tiles = [
    ["top-1", percent(metrics.top1), metrics.inScope + " cases that need a skill"],
    ["recall@3", percent(metrics.recallAt3), "expected skill among the best 3"],
    ["routed", percent(metrics.routed), "needed a skill and got one"],
    ["correct inject", percent(metrics.correctInject), "got exactly the expected skill"],
    ["abstained", percent(metrics.abstainRecall), metrics.noSkill + " cases that need none"],
    ["abstain precision", percent(metrics.abstainPrecision), "answered none and needed none"],
    ["false triggers", percent(metrics.falseTrigger), "injected when it should not"],
    ["ECE", fixed(metrics.ece, 3), "expected calibration error"],
    ["latency p50", fixed(latency.p50, 1) + " ms", "p95 " + fixed(latency.p95, 1) + " ms"],
  ];
  const summary = $("eval-summary");
  summary.replaceChildren();
  for (const [label, value, note] of tiles) {
    const tile = el("div", "tile");
    tile.dataset.metric = label;
    tile.append(el("div", "value", value), el("div", "label", label + " · " + note));
    summary.append(tile);
  }
  renderConfusion((run.confusion || []).map((pair) => read(pair, "pair")));
  renderReliability((run.reliability || []).map((bin) => read(bin, "bin")));
  renderFailures((run.cases || []).map((item) => read(item, "evalCase")));
  $("eval-result").hidden = false;
}

const nameOrNone = (name) => (name === null || name === undefined ? el("span", "none", "none") : document.createTextNode(name));

function renderConfusion(pairs) {
  const table = $("confusion");
  table.replaceChildren();
  if (pairs.length === 0) {
    table.append(row("td", ["no case went wrong"]));
    return;
  }
  table.append(row("th", ["expected", "answered", "cases", "for example"]));
  for (const pair of pairs.slice(0, 12)) {
    const cells = row("td", [nameOrNone(pair.expected), nameOrNone(pair.answered), String(pair.count), (pair.queries || []).map((query) => "“" + query + "”").join(" ")]);
    cells.children[2].className = "number";
    table.append(cells);
  }
}

function renderFailures(cases) {
  const table = $("failures");
  table.replaceChildren();
  const wrong = cases.filter((item) => item.answered !== item.expected);
  if (wrong.length === 0) {
    table.append(row("td", ["none: every case was decided right"]));
    return;
  }
  table.append(row("th", ["message", "expected", "answered", "confidence", ""]));
  for (const item of wrong) {
    const answered = item.answered === null ? el("span", "none", "none" + (item.reason ? " (" + words(item.reason) + ")" : "")) : document.createTextNode(item.answered);
    const again = el("button", "", "route it");
    again.type = "button";
    again.addEventListener("click", () => {
      $("query").value = item.query;
      showView("route");
      $("route-form").requestSubmit();
    });
    const cells = row("td", [item.query, nameOrNone(item.expected), answered, fixed(item.confidence), again]);
    cells.children[3].className = "number";
    table.append(cells);
  }
}

function row(cellTag, cells) {
  const tr = el("tr");
  for (const cell of cells) {
    const td = el(cellTag);
    if (cell instanceof Node) td.append(cell);
    else td.textContent = cell;
    tr.append(td);
  }
  return tr;
}

function renderReliability(bins) {
  const svg = $("reliability");
  svg.replaceChildren();
  const NS = "http://www.w3.org/2000/svg";
  const shape = (tag, attributes, text) => {
    const node = document.createElementNS(NS, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  const left = 36, top = 18, size = 240;
  const x = (value) => left + value * size;
  const y = (value) => top + (1 - value) * size;
  for (const bin of bins) {
    if (!bin.cases) continue;
    const width = (bin.high - bin.low) * size - 2;
    shape("rect", { class: "bin", x: x(bin.low) + 1, y: y(bin.accuracy), width: width, height: bin.accuracy * size }).append(Object.assign(document.createElementNS(NS, "title"), { textContent: bin.cases + " cases, confidence " + fixed(bin.confidence) + ", right " + percent(bin.accuracy) }));
    // The bin's mean confidence: the distance from the bar's top to this tick is what calibration error measures.
    shape("line", { class: "expected", x1: x(bin.low) + 1, y1: y(bin.confidence), x2: x(bin.low) + 1 + width, y2: y(bin.confidence) });
    shape("text", { x: x((bin.low + bin.high) / 2), y: y(bin.accuracy) - 3, "text-anchor": "middle" }, String(bin.cases));
  }
  shape("line", { class: "diagonal", x1: x(0), y1: y(0), x2: x(1), y2: y(1) });
  shape("line", { class: "axis", x1: x(0), y1: y(0), x2: x(1), y2: y(0) });
  shape("line", { class: "axis", x1: x(0), y1: y(0), x2: x(0), y2: y(1) });
  for (const tick of [0, 0.5, 1]) {
    shape("text", { x: x(tick), y: y(0) + 14, "text-anchor": "middle" }, String(tick));
    shape("text", { x: x(0) - 6, y: y(tick) + 3, "text-anchor": "end" }, String(tick));
  }
  shape("text", { x: x(0.5), y: y(0) + 30, "text-anchor": "middle" }, "confidence of the best skill");
  shape("text", { x: 10, y: y(0.5), "text-anchor": "middle", transform: "rotate(-90 10 " + y(0.5) + ")" }, "share right");
}

showStatus();
`;
