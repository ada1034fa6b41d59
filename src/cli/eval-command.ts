import { Command, InvalidArgumentError, Option } from "commander";
import { modelOptions } from "../config/model-options.js";
import { addSettingOptions, settingsOf } from "../config/setting-options.js";
import type { EvalReport, SplitChoice } from "../eval/evaluate-file.js";
import type { Failure } from "../eval/failures.js";
import type { GateResult, Gates } from "../eval/gates.js";
import { EXIT } from "./exit-codes.js";
import { parseShare } from "./number-arguments.js";
import { indexProgress } from "./index-progress.js";
import { createProgress } from "./progress.js";
import { addSplitOptions } from "./split-options.js";

interface EvalCommandOptions extends Gates {
  skill?: string;
  split?: SplitChoice;
  testFraction: number;
  seed: string;
  json?: boolean;
  failures?: boolean;
  quiet?: boolean;
}

const HELP = `
Formats:
  eval set        {"skills"?: [{name, description, queries?}], "cases": [{query, expected: name | null, candidates?}]}
                  (described in docs/evaluation.md). With "skills" and no --db, those skills are indexed into a cached
                  temporary index (first run: about 1 s per 10 to 20 skills with the offline model; then instant);
                  ROUTER_DB, or db in the config file, is the index only for a set without "skills".
  trigger evals   [{"query": "...", "should_trigger": true | false}] (skill-creator's evals/trigger-evals.json),
                  with --skill <name>, against --db. The question per case is "was <name> injected?": a
                  should_trigger case that goes to another skill is a miss; a should-not case that goes to
                  another skill is right for <name> (counted, and listed as "went to other skills").
                  --min-accuracy then holds the share of cases decided right, as skill-creator counts passes.

Split: eval sets default to the test half of router fit's split (same seed and fraction), so a fitted index is
measured on cases it never saw; trigger evals default to all cases. Gates take shares in [0, 1] (--max-p95-ms
takes milliseconds); any gate not met exits with code 5.

Examples:
  router eval evals/metatool.json --failures
  router eval evals/trigger-evals.json --skill pdf-extract --db data/router.db --min-accuracy 0.9 --max-false-trigger 0.05`;

export function evalCommand(): Command {
  const command = new Command("eval")
    .description("measure routing on labelled cases: top-1, recall@3, MRR, abstention, false triggers, calibration, latency")
    .argument("<file>", "an eval set (the format above) or a skill-creator trigger-eval file");
  return addSplitOptions(
    addSettingOptions(command, ["db", "evalCacheDir"])
      .option("--skill <name>", "the skill a trigger-eval file is about")
      .addOption(new Option("--split <part>", "which cases: test, train or all (default: test for eval sets, all for trigger evals)").choices(["test", "train", "all"])),
  )
    .option("--json", "print the report (metrics, gates, failures) as JSON")
    .option("--failures", "list every failure with its explanation")
    .addOption(new Option("--min-accuracy <share>", "top-1 accuracy on in-scope cases at least this (trigger evals: share of cases decided right)").argParser(parseShare))
    .addOption(new Option("--min-recall-at-3 <share>", "recall@3 at least this").argParser(parseShare))
    .addOption(new Option("--min-mrr <share>", "MRR@10 at least this").argParser(parseShare))
    .addOption(new Option("--min-routed <share>", "share of in-scope cases injected at least this").argParser(parseShare))
    .addOption(new Option("--min-abstain <share>", "share of no-skill cases answered none at least this").argParser(parseShare))
    .addOption(new Option("--max-false-trigger <share>", "share of all cases injected wrongly at most this").argParser(parseShare))
    .addOption(new Option("--max-ece <value>", "expected calibration error at most this").argParser(parseShare))
    .addOption(new Option("--max-p95-ms <ms>", "p95 routing latency at most this").argParser(parsePositive))
    .option("-q, --quiet", "no progress output")
    .addHelpText("after", HELP)
    .action(async (file: string, options: EvalCommandOptions, command: Command) => {
      const { settings, sources } = await settingsOf(command);
      const [{ evaluateFile }, { checkGates }, { listFailures }, { formatFailures, formatGates, formatReport }] = await Promise.all([
        import("../eval/evaluate-file.js"),
        import("../eval/gates.js"),
        import("../eval/failures.js"),
        import("../eval/format-report.js"),
      ]);
      const showProgress = !options.quiet && !options.json;
      const indexing = indexProgress(showProgress);
      const routing = createProgress("routing", "cases", process.stderr, showProgress);
      const report = await evaluateFile({
        file,
        ...(sources.db === "flag" ? { db: settings.db } : {}),
        fallbackDb: settings.db,
        cacheDir: settings.evalCacheDir,
        models: modelOptions(settings),
        ...(options.skill ? { skill: options.skill } : {}),
        ...(options.split ? { split: options.split } : {}),
        splitOptions: { testFraction: options.testFraction, seed: options.seed },
        onIndexProgress: indexing.onProgress,
        onCaseProgress: (done, total) => {
          // Indexing is over once cases route: clear its line once, not before every case (that would blank the routing line).
          if (done === 1) indexing.finish();
          routing.update(done, total);
        },
      });
      routing.finish();
      const gates = checkGates(report.metrics, options, report.skill ? "trigger" : "top1");
      const failures = options.failures ? listFailures(report.outcomes) : undefined;
      const text = () => [formatReport(report), ...(gates.length > 0 ? [formatGates(gates)] : []), ...(failures ? [formatFailures(failures)] : [])].join("");
      process.stdout.write(options.json ? `${JSON.stringify(jsonReport(report, gates, failures), null, 2)}\n` : text());
      if (gates.some((gate) => !gate.passed)) process.exitCode = EXIT.GATE_FAILED;
    });
}

function jsonReport(report: EvalReport, gates: GateResult[], failures: Failure[] | undefined) {
  const { outcomes: _outcomes, ...summary } = report;
  return { ...summary, gates, ...(failures ? { failures } : {}) };
}

function parsePositive(value: string): number {
  const number = Number(value);
  if (!(number > 0)) throw new InvalidArgumentError("must be a positive number");
  return number;
}
