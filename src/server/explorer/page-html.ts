import { MAX_K } from "../../contract/limits.js";

/**
 * The explorer's markup: no inline script or style (the CSP allows neither), no data. The script and styles come
 * from the same server by relative paths, so the page also works behind a proxy that mounts the router under a prefix.
 */
export const EXPLORER_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>skill-router explorer</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="explorer/explorer.css">
<script type="module" src="explorer/explorer.js"></script>
</head>
<body>
<header>
  <h1>skill-router <span>explorer</span></h1>
  <nav>
    <button type="button" id="tab-route" class="tab" aria-pressed="true">Route a message</button>
    <button type="button" id="tab-eval" class="tab" aria-pressed="false">Evaluate a set</button>
  </nav>
  <label class="key">API key <input id="key" type="password" autocomplete="off" spellcheck="false" placeholder="only if the router has one"></label>
  <p id="status" role="status">connecting…</p>
</header>
<main>
  <section id="view-route">
    <form id="route-form">
      <label for="query">A user's message</label>
      <textarea id="query" rows="3" placeholder="my pod keeps restarting with CrashLoopBackOff"></textarea>
      <div class="options">
        <label>skills shown <input id="k" type="number" min="1" max="${MAX_K}" value="5"></label>
        <label>threshold <input id="threshold" type="number" min="0" max="1" step="0.01" placeholder="learned"></label>
        <button id="route-button" type="submit">Route</button>
        <span class="hint">Enter routes, Shift+Enter adds a line</span>
      </div>
    </form>
    <p id="route-error" class="error" role="alert" hidden></p>
    <div id="route-result" hidden>
      <div id="decision" class="decision"></div>
      <div id="scope" class="scope"></div>
      <div id="prompt-added" class="prompt-added"></div>
      <div id="feedback" class="feedback">
        <span class="question">Was this answer right?</span>
        <button type="button" id="feedback-right">Right</button>
        <button type="button" id="feedback-wrong" aria-expanded="false" aria-controls="feedback-correction">Wrong, it should be…</button>
        <form id="feedback-correction" hidden>
          <label>it should be <select id="feedback-skill"></select></label>
          <label>or, by name, <input id="feedback-name" list="feedback-names" autocomplete="off" spellcheck="false" placeholder="another skill"></label>
          <datalist id="feedback-names"></datalist>
          <button type="submit" id="feedback-send">Tell the router</button>
        </form>
        <p id="feedback-note" class="note" role="status" hidden></p>
        <p id="feedback-error" class="error" role="alert" hidden></p>
      </div>
      <ol id="ranked" class="ranked"></ol>
      <p id="route-meta" class="meta"></p>
    </div>
  </section>
  <section id="view-eval" hidden>
    <form id="eval-form">
      <label>Eval set <input id="eval-file" type="file" accept=".json,application/json"></label>
      <label>cases <select id="split">
        <option value="test">the test half (what router fit holds out)</option>
        <option value="all">all of them</option>
        <option value="train">the training half</option>
      </select></label>
      <button id="eval-button" type="submit">Run against this router</button>
    </form>
    <p class="hint">The file's cases are routed by this server's live index, so an edit picked up by a reload or a
      <code>router fit</code> shows in the next run. Format: <code>{"cases": [{"query": "...", "expected": "skill-name" | null}]}</code>,
      at most 500 cases per run, within the server's request timeout; <code>router eval</code> runs any number.</p>
    <p id="eval-error" class="error" role="alert" hidden></p>
    <div id="eval-result" hidden>
      <p id="eval-heading" class="meta"></p>
      <div id="eval-summary" class="tiles"></div>
      <div class="columns">
        <div>
          <h2>Most often mixed up</h2>
          <table id="confusion"></table>
        </div>
        <div>
          <h2>Reliability of the confidence</h2>
          <svg id="reliability" viewBox="0 0 320 300" role="img" aria-label="reliability diagram"></svg>
          <p class="hint">Bars: how often the best-ranked skill was the expected one, for the cases whose confidence fell in
            each tenth (the number of cases above). Red ticks: those cases' mean confidence. A calibrated router's bars reach
            their ticks, on the diagonal.</p>
        </div>
      </div>
      <h2>Cases it got wrong</h2>
      <table id="failures"></table>
    </div>
  </section>
</main>
</body>
</html>
`;
