/** The explorer's styles, served as a file of its own (the CSP allows no inline style). */
export const EXPLORER_CSS = `
:root { --ink: #1d232b; --muted: #5f6b7a; --line: #d9dee5; --panel: #f6f8fa; --accent: #2557c4; --good: #1f8a4c; --none: #8a5a00; --penalty: #c23b31; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); }
header { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.5rem; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); }
h1 { font-size: 1.15rem; margin: 0; }
h1 span { font-weight: 400; color: var(--muted); }
h2 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
nav { display: flex; gap: .25rem; }
.tab { border: 1px solid var(--line); background: #fff; padding: .3rem .8rem; border-radius: 4px; cursor: pointer; font: inherit; }
.tab[aria-pressed="true"] { background: var(--accent); border-color: var(--accent); color: #fff; }
.key { font-size: .9rem; color: var(--muted); }
.key input { width: 14rem; font: inherit; padding: .2rem .4rem; }
#status { margin: 0; font-size: .9rem; color: var(--muted); }
#status.problem { color: var(--penalty); }
main { max-width: 64rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
form label { color: var(--muted); font-size: .9rem; }
textarea { display: block; width: 100%; margin: .25rem 0 .5rem; font: inherit; padding: .5rem; border: 1px solid var(--line); border-radius: 4px; resize: vertical; }
.options, #eval-form { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem; }
.options input { width: 5rem; font: inherit; }
button[type="submit"] { background: var(--accent); color: #fff; border: 0; border-radius: 4px; padding: .4rem 1.1rem; font: inherit; cursor: pointer; }
button[disabled] { opacity: .6; cursor: progress; }
.hint { color: var(--muted); font-size: .85rem; }
.error { color: var(--penalty); background: #fdf1f0; border: 1px solid #f1c9c5; border-radius: 4px; padding: .5rem .75rem; }
.meta { color: var(--muted); font-size: .85rem; }
.decision { font-size: 1.3rem; margin: 1rem 0 .25rem; }
.decision.inject strong { color: var(--good); }
.decision.none strong { color: var(--none); }
.decision.offer strong { color: var(--accent, var(--good)); }
.prompt-added { margin: .5rem 0; color: var(--muted); }
.prompt-added pre { white-space: pre-wrap; background: var(--panel, transparent); border: 1px solid var(--line, #ccc); padding: .5rem; font-size: .85rem; }
.decision .why { font-size: .95rem; color: var(--muted); }
.scope { display: grid; grid-template-columns: 9rem 1fr 11rem; gap: .3rem .75rem; align-items: center; font-size: .9rem; margin: .5rem 0 1rem; }
.gauge { position: relative; height: .8rem; background: var(--panel); border: 1px solid var(--line); border-radius: 3px; }
.gauge .fill { position: absolute; left: 0; top: 0; bottom: 0; background: var(--accent); border-radius: 2px; }
.gauge .mark { position: absolute; top: -.3rem; bottom: -.3rem; width: 2px; background: var(--ink); }
.feedback { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem .6rem; margin: 0 0 1rem; font-size: .9rem; }
.feedback .question { color: var(--muted); }
.feedback button[type="button"] { font: inherit; border: 1px solid var(--line); background: #fff; border-radius: 4px; padding: .2rem .7rem; cursor: pointer; }
.feedback button[aria-expanded="true"] { border-color: var(--accent); color: var(--accent); }
#feedback-correction { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem .75rem; flex-basis: 100%; }
#feedback-correction[hidden], .feedback p[hidden] { display: none; }
.feedback .note, .feedback .error { flex-basis: 100%; margin: 0; }
.feedback .note strong { color: var(--good); }
.ranked { list-style: none; padding: 0; margin: 0; }
.skill { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin-bottom: .75rem; }
.skill.selected { border-color: var(--good); box-shadow: 0 0 0 1px var(--good); }
.skill-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem .75rem; }
.skill-head .name { font-weight: 600; font-size: 1.05rem; }
.skill-head .rank, .skill-head .kind, .skill-head .tokens { color: var(--muted); font-size: .85rem; }
.skill-head .risky { color: #fff; background: var(--penalty); border-radius: 3px; padding: 0 .4rem; font-size: .85rem; cursor: help; }
.skill-head .confidence { font-variant-numeric: tabular-nums; font-weight: 600; }
.description { color: var(--muted); font-size: .9rem; margin: .25rem 0 .5rem; }
.signals { display: grid; grid-template-columns: 8rem 1fr 4rem; gap: .2rem .75rem; align-items: center; font-size: .85rem; margin: .5rem 0; }
.signal { display: contents; }
.signal-name { font-family: ui-monospace, monospace; color: var(--muted); }
.bar { height: .6rem; background: var(--panel); border-radius: 3px; overflow: hidden; }
.bar span { display: block; height: 100%; background: var(--accent); }
.signal.penalty .bar span { background: var(--penalty); }
.signal-value { font-variant-numeric: tabular-nums; text-align: right; }
.evidence { font-size: .9rem; margin: .25rem 0; }
.evidence .label { color: var(--muted); }
.chip { display: inline-block; background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 0 .5rem; margin: 0 .25rem .25rem 0; font-size: .85rem; }
.evidence.near-miss q { color: var(--penalty); }
details { margin-top: .5rem; }
summary { cursor: pointer; color: var(--accent); font-size: .9rem; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: .75rem; overflow: auto; max-height: 24rem; font-size: .8rem; white-space: pre-wrap; }
.tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); gap: .5rem; }
.tile { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .75rem; }
.tile .value { font-size: 1.3rem; font-weight: 600; font-variant-numeric: tabular-nums; }
.tile .label { color: var(--muted); font-size: .8rem; }
.columns { display: grid; grid-template-columns: 1fr 20rem; gap: 2rem; }
@media (max-width: 50rem) { .columns { grid-template-columns: 1fr; } }
table { border-collapse: collapse; width: 100%; font-size: .88rem; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 500; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
td .none { color: var(--none); }
td button { white-space: nowrap; font: inherit; font-size: .8rem; border: 1px solid var(--line); background: #fff; border-radius: 3px; cursor: pointer; }
#reliability { width: 100%; max-width: 20rem; }
#reliability .axis { stroke: var(--ink); stroke-width: 1; }
#reliability .diagonal { stroke: var(--muted); stroke-dasharray: 4 3; }
#reliability .bin { fill: var(--accent); opacity: .85; }
#reliability .expected { stroke: var(--penalty); stroke-width: 2; }
#reliability text { font-size: 10px; fill: var(--muted); }
`;
