import { Command, Option } from "commander";
import { DEFAULT_MIN_ROUTED } from "../fit/fit-params.js";
import type { FitIndexReport } from "../fit/fit-index.js";
import { modelOptions } from "../config/model-options.js";
import { addSettingOptions, settingsOf } from "../config/setting-options.js";
import { parseFraction } from "./number-arguments.js";
import { createProgress } from "./progress.js";
import { addSplitOptions } from "./split-options.js";

interface FitOptions {
  testFraction: number;
  seed: string;
  all?: boolean;
  minRouted: number;
  json?: boolean;
  quiet?: boolean;
}

export function fitCommand(): Command {
  return addSplitOptions(
    addSettingOptions(
      new Command("fit")
        .description("learn the ranking weights, in-scope model and threshold, margin and per-skill thresholds from labelled cases, and store them in the index")
        .argument("<eval-set>", "labelled cases in the eval-set format (cases with expected skill names or null)"),
      ["db"],
    ),
  )
    .option("--all", "fit on every case (nothing held out, so nothing to report on)")
    .addOption(new Option("--min-routed <share>", "share of in-scope cases that must still be routed; abstention is maximised under it").default(DEFAULT_MIN_ROUTED).argParser(parseFraction))
    .option("--json", "print the report as JSON")
    .option("-q, --quiet", "no progress output")
    .action(async (file: string, options: FitOptions, command: Command) => {
      const { settings } = await settingsOf(command);
      const [{ readEvalSet }, { splitCases }, { fitIndex }] = await Promise.all([import("../eval/eval-set.js"), import("../eval/split.js"), import("../fit/fit-index.js")]);
      const set = readEvalSet(file);
      const split = { testFraction: options.testFraction, seed: options.seed };
      const { train, test } = options.all ? { train: set.cases, test: [] } : splitCases(set.cases, split);
      const showProgress = !options.quiet && !options.json;
      // Training cases are routed to collect evidence, then the held-out ones to measure the fit: two stages, two lines.
      const stages = {
        collect: createProgress("routing training cases", "cases", process.stderr, showProgress),
        evaluate: createProgress("routing held-out cases", "cases", process.stderr, showProgress),
      };
      const report = await fitIndex({
        db: settings.db,
        models: modelOptions(settings),
        train,
        test,
        origin: `router fit ${file} (${train.length} training cases${options.all ? "" : `, split seed "${split.seed}", test fraction ${split.testFraction}`})`,
        minRouted: options.minRouted,
        onProgress: (stage, done, total) => stages[stage].update(done, total),
      });
      for (const bar of Object.values(stages)) bar.finish();
      process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, settings.db));
    });
}

function formatReport(report: FitIndexReport, db: string): string {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const lines = [
    `Fitted on ${report.training.cases} cases and stored in ${db}: in-scope threshold ${report.params.threshold.toFixed(2)}, margin ${report.params.minMargin.toFixed(2)}, ${Object.keys(report.params.skillThresholds).length} per-skill thresholds, ${report.abstainExamples} abstain examples`,
    `  training  routed ${percent(report.training.routed)}  correct ${percent(report.training.correct)}  abstained ${percent(report.training.abstained)}`,
  ];
  const held = report.heldOut;
  if (held) {
    lines.push(
      `  held out (${held.cases} cases, never fitted on)  top-1 ${percent(held.top1)}  routed ${percent(held.routed)}  correct ${percent(held.correct_inject)}  abstained ${percent(held.abstain_recall)}  ECE ${held.ece.toFixed(3)}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
