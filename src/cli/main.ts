#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { isRouterError } from "../errors.js";
import { asIndexError } from "../store/database.js";
import { VERSION } from "../version.js";
import { EXIT, exitCodeFor } from "./exit-codes.js";
import { doctorCommand } from "./doctor-command.js";
import { evalCommand } from "./eval-command.js";
import { expandCommand } from "./expand-command.js";
import { fitCommand } from "./fit-command.js";
import { hookCommand } from "./hook-command.js";
import { indexCommand } from "./index-command.js";
import { manifestsCommand } from "./manifests-command.js";
import { mcpCommand } from "./mcp-command.js";
import { modelsCommand } from "./models-command.js";
import { routeCommand } from "./route-command.js";
import { serveCommand } from "./serve-command.js";
import { showCommand } from "./show-command.js";
import { skillsCommand } from "./skills-command.js";

// `router skills | head` closes stdout early; that is the reader's choice, not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(EXIT.OK);
  throw error;
});

const program = new Command("router").description("skill-router: tells an LLM agent which installed skill to inject for a message, or none").version(VERSION);
for (const command of [indexCommand(), skillsCommand(), showCommand(), routeCommand(), fitCommand(), evalCommand(), serveCommand(), expandCommand(), manifestsCommand(), modelsCommand(), doctorCommand(), hookCommand(), mcpCommand()]) {
  program.addCommand(command);
}
withCliBehaviour(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error);
}

/** Every command, subcommands too (addCommand does not pass settings down): help after a usage error, errors thrown to reportError. */
function withCliBehaviour(command: Command): void {
  command.showHelpAfterError("(add --help for usage)").exitOverride();
  for (const child of command.commands) withCliBehaviour(child);
}

function reportError(error: unknown): number {
  if (error instanceof CommanderError) {
    // Commander already printed the message (or the help/version text, which exit with code 0).
    return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
  }
  // Damage deep inside an index file surfaces only when a page is read, from any command.
  const reported = asIndexError(error, "the index file");
  if (isRouterError(reported)) {
    process.stderr.write(`error [${reported.code}]: ${reported.message}\n`);
    return exitCodeFor(reported.code);
  }
  process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT.FAILURE;
}
