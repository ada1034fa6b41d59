// Learning from what the agent loads: half of trigger-dev's requests are routed and answered as the Claude Code hook
// answers them; where the router offered a list, the skill the agent loads from it (the judgments file says which) is
// reported as the hook's PostToolUse does, with the answer's route_id. The feedback is applied, and the other half is
// scored before and after: what reaches the agent, and how much of it is injected directly. Both manifest tracks,
// curated distractors; works on copies of bench/trigger-dev.ts's cached indexes.
// Usage: npx tsx bench/feedback-replay.ts [--track heuristic|llm]
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { routableQuery } from "../src/contract/limits.js";
import { splitCases } from "../src/eval/split.js";
import { applyFeedbackRun } from "../src/indexer/apply-feedback-run.js";
import { createRouter } from "../src/route/router.js";
import { openIndexForWrite } from "../src/store/database.js";
import { saveFeedback } from "../src/store/feedback-rows.js";
import { agentLoads, handedBy, readJudgments, tokenFigures, type ReachCounts } from "./agent-reach.js";
import { distractorSets, everydaySets, MANIFEST_TRACKS, measureTriggerDev, routeCases, type Case, type ManifestTrack } from "./trigger-dev-eval.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const shared = path.resolve(repo, "..", "shared");
const evalDir = path.join(shared, "eval", "trigger-dev");
const cacheDir = path.join(repo, "bench", ".cache", "trigger-dev");
const { values } = parseArgs({ options: { track: { type: "string", multiple: true } } });
const tracks = (values.track ?? MANIFEST_TRACKS) as ManifestTrack[];
const [curated] = distractorSets(path.join(shared, "corpus", "skills"));
const cases = (JSON.parse(readFileSync(path.join(evalDir, "cases.json"), "utf8")) as { cases: Case[] }).cases;
const judgments = readJudgments(path.join(evalDir, "agent-judgments.jsonl"));
// The same split as router eval and router fit: by a hash of each query, so a request never lands on both sides.
const { train: replayed, test: scored } = splitCases(cases);

for (const track of tracks) {
  const figures = await measureTriggerDev({
    evalDir,
    distractors: curated!,
    track,
    cacheDir,
    fresh: false,
    everydaySets: everydaySets(path.join(shared, "eval")),
    log: (message) => process.stderr.write(`${message}\n`),
  });
  const copy = path.join(cacheDir, `feedback-replay-${track}.db`);
  copyIndex(figures.db, copy);
  const before = await scoreHalf(copy);

  const router = await createRouter({ db: copy });
  const writer = openIndexForWrite(copy);
  const recorded = performance.now();
  const reported = { loads: 0, examples: 0, rejected: 0 };
  try {
    for (const item of replayed) {
      const query = routableQuery(item.query);
      const answer = await router.route(query);
      // The hook reports a skill the agent loaded with its Skill tool: one it chose from an offer.
      if (answer.decision !== "offer" || answer.invoked !== null) continue;
      const { loaded } = agentLoads(handedBy(answer), judgments.get(item.query));
      if (loaded === null) continue;
      const judged = await router.feedback({ query, skill: loaded, route_id: answer.route_id });
      const { row } = saveFeedback(writer, { ...judged, client: "claude-code" });
      reported.loads++;
      if (row.role === "example") reported.examples++;
      else reported.rejected++;
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

  console.log(`## ${track} manifests, curated distractors: ${replayed.length} requests answered as the hook would, the other ${scored.length} scored\n`);
  console.log(
    `feedback: the agent loaded ${reported.loads} skills from offers (${reported.examples} now examples, ${run.feedback.lone} of them not yet agreed with; ${reported.rejected} not learned: a near miss of their own skill); recorded in ${(recordMs / 1000).toFixed(1)} s, applied in ${(applyMs / 1000).toFixed(1)} s (${run.feedback.skills} skills changed)\n`,
  );
  console.log(
    "| scored half | right skill reaches the agent | near miss: own skill loaded | near miss: any skill loaded | tokens added, mean / p95 | injected | injections right | right answers injected | offers | none |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  console.log(row("before the feedback", before));
  console.log(row("after the feedback from the other half", after));
  console.log("");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${copy}${suffix}`, { force: true });
}

async function scoreHalf(db: string): Promise<ReachCounts> {
  const router = await createRouter({ db });
  try {
    return (await routeCases(router, scored, judgments)).reach.answer;
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

function row(label: string, counts: ReachCounts): string {
  const percent = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : "-");
  const tokens = tokenFigures(counts.tokens);
  const offers = Object.values(counts.offerSizes).reduce((sum, count) => sum + count, 0);
  return `| ${label} | ${percent(counts.rightReached, counts.positives)} | ${percent(counts.ownLoaded, counts.negatives)} | ${percent(counts.anyLoaded, counts.negatives)} | ${Math.round(tokens.mean)} / ${tokens.p95} | ${counts.injected} | ${percent(counts.injectedRight, counts.injected)} | ${percent(counts.injectedRight, counts.rightReached)} | ${offers} | ${counts.none} |`;
}
