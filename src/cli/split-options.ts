import { Option, type Command } from "commander";
import { DEFAULT_SPLIT } from "../eval/split.js";
import { parseFraction } from "./number-arguments.js";

/** Adds `--test-fraction` and `--seed`: fit and eval must split the same cases the same way. */
export function addSplitOptions(command: Command): Command {
  return command
    .addOption(new Option("--test-fraction <share>", "share of cases held out for testing (chosen by a hash of the query)").default(DEFAULT_SPLIT.testFraction).argParser(parseFraction))
    .addOption(new Option("--seed <text>", "seed of the train/test split").default(DEFAULT_SPLIT.seed));
}
