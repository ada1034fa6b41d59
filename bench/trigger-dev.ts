// Real skills with their authors' trigger evals (../shared/eval/trigger-dev), among distractor skills from the
// shared corpus, with default settings: no LLM, no labels, no fitting. Usage: npx tsx bench/trigger-dev.ts [--all] [--fresh] [--track heuristic|llm]
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { everydayTable, reachTable, triggerDevTable } from "./render-trigger.js";
import { distractorSets, everydaySets, MANIFEST_TRACKS, measureTriggerDev, type ManifestTrack } from "./trigger-dev-eval.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const shared = path.resolve(repo, "..", "shared");
const { values } = parseArgs({
  options: { fresh: { type: "boolean", default: false }, all: { type: "boolean", default: false }, track: { type: "string", multiple: true } },
});
// Both tracks by default: what a user without an LLM gets, and what one with a strong LLM's manifests gets.
const tracks = (values.track ?? MANIFEST_TRACKS) as ManifestTrack[];
// The curated set (just over 1,000 distractors) by default; --all adds every skill of the corpus.
const sets = distractorSets(path.join(shared, "corpus", "skills"));
for (const distractors of values.all ? sets : sets.slice(0, 1)) {
  for (const track of distractors.tracks.filter((track) => tracks.includes(track))) {
    const figures = await measureTriggerDev({
      evalDir: path.join(shared, "eval", "trigger-dev"),
      distractors,
      track,
      cacheDir: path.join(repo, "bench", ".cache", "trigger-dev"),
      fresh: values.fresh,
      everydaySets: everydaySets(path.join(shared, "eval")),
      log: (message) => process.stderr.write(`${message}\n`),
    });
    console.log(`${track} track\n${triggerDevTable(figures)}\n\n${reachTable(figures)}\n\n${everydayTable(figures)}\n`);
  }
}
