// Learning from use: half of trigger-dev's cases are replayed as feedback (each positive as its skill, each near miss as
// "none"), the other half is scored before and after, both manifest tracks, curated distractors. Builds or updates the
// cached indexes of bench/trigger-dev.ts, and works on copies of them. Usage: npx tsx bench/feedback-replay.ts [--track heuristic|llm]
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { splitCases } from "../src/eval/split.js";
import { applyFeedbackRun } from "../src/indexer/apply-feedback-run.js";
import { createRouter } from "../src/route/router.js";
import { openIndexForWrite } from "../src/store/database.js";
import { saveFeedback } from "../src/store/feedback-rows.js";
import { triggerDevTable } from "./render-trigger.js";
import { distractorSets, everydaySets, MANIFEST_TRACKS, measureTriggerDev, routeCases, type Case, type ManifestTrack, type TriggerCounts } from "./trigger-dev-eval.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const shared = path.resolve(repo, "..", "shared");
const evalDir = path.join(shared, "eval", "trigger-dev");
const cacheDir = path.join(repo, "bench", ".cache", "trigger-dev");
const { values } = parseArgs({ options: { track: { type: "string", multiple: true } } });
const tracks = (values.track ?? MANIFEST_TRACKS) as ManifestTrack[];
const [curated] = distractorSets(path.join(shared, "corpus", "skills"));
const cases = (JSON.parse(readFileSync(path.join(evalDir, "cases.json"), "utf8")) as { cases: Case[] }).cases;
// The same split as router eval and router fit: by a hash of each query, so a request never lands on both sides.
const { train: replayed, test: scored } = splitCases(cases);

for (const track of tracks) {
  const figures = await measureTriggerDev({ evalDir, distractors: curated!, track, cacheDir, fresh: false, everydaySets: everydaySets(path.join(shared, "eval")), log: (message) => process.stderr.write(`${message}\n`) });
  const copy = path.join(cacheDir, `feedback-replay-${track}.db`);
  copyIndex(figures.db, copy);
  const before = await scoreHalf(copy);

  const router = await createRouter({ db: copy });
  const writer = openIndexForWrite(copy);
  const recorded = performance.now();
  const roles = { example: 0, rejected: 0, none: 0, negatives: 0 };
  try {
    for (const item of replayed) {
      const judged = await router.feedback({ query: item.query, skill: item.expected });
      const { row } = saveFeedback(writer, { ...judged, client: "replay" });
      roles[row.role]++;
      if (row.wrong !== null) roles.negatives++;
    }
  } finally {
    writer.close();
    await router.close();
  }
  const recordMs = performance.now() - recorded;
  const applied = performance.now();
  const run = await applyFeedbackRun(copy);
  const applyMs = performance.now() - applied;
  const after = await scoreHalf(copy);

  console.log(`## ${track} manifests, curated distractors: ${replayed.length} cases replayed as feedback, the other ${scored.length} scored\n`);
  console.log(
    `feedback: ${roles.example} examples (${run.feedback.lone} not yet agreed with), ${roles.rejected} not learned (a near miss of their own skill), ${roles.none} none, ${roles.negatives} negatives of a skill injected wrongly; recorded in ${(recordMs / 1000).toFixed(1)} s, applied in ${(applyMs / 1000).toFixed(1)} s (${run.feedback.skills} skills changed)\n`,
  );
  console.log("| scored half | positives | top-1 | right skill injected | near misses | routed to their own skill | routed to any skill |");
  console.log("|---|---|---|---|---|---|---|");
  console.log(row("without feedback", before));
  console.log(row("after feedback from the other half", after));
  console.log(`\nwhole set, without feedback:\n${triggerDevTable(figures)}\n`);
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${copy}${suffix}`, { force: true });
}

async function scoreHalf(db: string): Promise<TriggerCounts> {
  const router = await createRouter({ db });
  try {
    return (await routeCases(router, scored)).all;
  } finally {
    await router.close();
  }
}

function copyIndex(from: string, to: string): void {
  mkdirSync(path.dirname(to), { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) {
    rmSync(`${to}${suffix}`, { force: true });
    try {
      copyFileSync(`${from}${suffix}`, `${to}${suffix}`);
    } catch {
      // A checkpointed index has no -wal or -shm file.
    }
  }
}

function row(label: string, counts: TriggerCounts): string {
  const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
  return `| ${label} | ${counts.positives} | ${percent(counts.top1, counts.positives)} | ${percent(counts.injectedRight, counts.positives)} | ${counts.negatives} | ${percent(counts.negativesOwnSkill, counts.negatives)} | ${percent(counts.negativesAnySkill, counts.negatives)} |`;
}
