#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { isRouterError } from "../errors.js";
import { VERSION } from "../version.js";
import { EXIT, exitCodeFor } from "./exit-codes.js";

/**
 * Every command, in the order help lists them, each imported only when it may run: `router --version` loads none,
 * `router route ...` only route's module (and each command's module loads its heavy parts only in its action).
 */
const COMMANDS: [name: string, load: () => Promise<Command>][] = [
  ["index", async () => (await import("./index-command.js")).indexCommand()],
  ["skills", async () => (await import("./skills-command.js")).skillsCommand()],
  ["show", async () => (await import("./show-command.js")).showCommand()],
  ["route", async () => (await import("./route-command.js")).routeCommand()],
  ["fit", async () => (await import("./fit-command.js")).fitCommand()],
  ["feedback", async () => (await import("./feedback-command.js")).feedbackCommand()],
  ["eval", async () => (await import("./eval-command.js")).evalCommand()],
  ["serve", async () => (await import("./serve-command.js")).serveCommand()],
  ["expand", async () => (await import("./expand-command.js")).expandCommand()],
  ["manifests", async () => (await import("./manifests-command.js")).manifestsCommand()],
  ["models", async () => (await import("./models-command.js")).modelsCommand()],
  ["doctor", async () => (await import("./doctor-command.js")).doctorCommand()],
  ["hook", async () => (await import("./hook-command.js")).hookCommand()],
  ["mcp", async () => (await import("./mcp-command.js")).mcpCommand()],
];

// `router skills | head` closes stdout early; that is the reader's choice, not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(EXIT.OK);
  throw error;
});

const program = new Command("router").description("skill-router: tells an LLM agent which installed skill to inject for a message, or none").version(VERSION);
// Said before the wait, not after: a command that waits for another writer's lock would otherwise sit silent.
program.hook("preAction", async () => {
  const { listenForLockWaits } = await import("../store/lock-wait.js");
  listenForLockWaits((file, waitMs) =>
    process.stderr.write(
      `waiting up to ${Math.round(waitMs / 1000)} s for the index lock on ${file}, held by another writer (\`router index\`, \`router fit\` or \`router feedback apply\`, perhaps a server's)…\n`,
    ),
  );
});
const args = process.argv.slice(2);
for (const command of await Promise.all(COMMANDS.filter(([name]) => needed(name, args)).map(([, load]) => load()))) program.addCommand(command);
withCliBehaviour(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = await reportError(error);
}

/**
 * Whether commander could reach this command with these arguments: the command named first (or after `help`) alone;
 * none for a bare --version; all of them otherwise, since help and "unknown command" list them.
 */
function needed(name: string, args: string[]): boolean {
  const named = args[0] === "help" ? args[1] : args[0];
  if (COMMANDS.some(([known]) => known === named)) return name === named;
  const operand = args.findIndex((arg) => !arg.startsWith("-"));
  return !args.slice(0, operand === -1 ? undefined : operand).some((arg) => arg === "-V" || arg === "--version");
}

/** Every command, subcommands too (addCommand does not pass settings down): help after a usage error, errors thrown to reportError. */
function withCliBehaviour(command: Command): void {
  command.showHelpAfterError("(add --help for usage)").exitOverride();
  for (const child of command.commands) withCliBehaviour(child);
}

async function reportError(error: unknown): Promise<number> {
  if (error instanceof CommanderError) {
    // Commander already printed the message (or the help/version text, which exit with code 0).
    return error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
  }
  // Damage deep inside an index file surfaces only when a page is read, from any command.
  const { asIndexError } = await import("../store/database.js");
  const reported = asIndexError(error, "the index file");
  if (isRouterError(reported)) {
    process.stderr.write(`error [${reported.code}]: ${reported.message}\n`);
    return exitCodeFor(reported.code);
  }
  // A file the command could not read or write (a folder without permission, a full disk): the environment's fault, not a bug to trace.
  if (isSystemError(error)) {
    process.stderr.write(`error [FILE_ACCESS_FAILED]: ${error.message}\n`);
    return exitCodeFor("FILE_ACCESS_FAILED");
  }
  process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT.FAILURE;
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === "string" && typeof (error as NodeJS.ErrnoException).code === "string";
}
