// Real skills with their authors' trigger evals (../shared/eval/trigger-dev), among distractor skills from the
// shared corpus, with default settings: no LLM, no labels, no fitting. Usage: npx tsx bench/trigger-dev.ts [--all] [--fresh]
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { triggerDevTable } from "./render-trigger.js";
import { distractorSets, measureTriggerDev } from "./trigger-dev-eval.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const shared = path.resolve(repo, "..", "shared");
const { values } = parseArgs({ options: { fresh: { type: "boolean", default: false }, all: { type: "boolean", default: false } } });
// The curated set (just over 1,000 distractors) by default; --all adds every skill of the corpus.
const sets = distractorSets(path.join(shared, "corpus", "skills"));
for (const distractors of values.all ? sets : sets.slice(0, 1)) {
  const figures = await measureTriggerDev({
    evalDir: path.join(shared, "eval", "trigger-dev"),
    distractors,
    cacheDir: path.join(repo, "bench", ".cache", "trigger-dev"),
    fresh: values.fresh,
    log: (message) => process.stderr.write(`${message}\n`),
  });
  console.log(`${triggerDevTable(figures)}\n`);
}
