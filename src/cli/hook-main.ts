#!/usr/bin/env node
// `router-hook`: the hook command alone. An agent runs it before every prompt, so it loads only the HTTP
// client (about 0.1 s) instead of every command's models and database code.
import { CommanderError } from "commander";
import { hookCommand } from "./hook-command.js";

try {
  await hookCommand().name("router-hook").exitOverride().parseAsync(process.argv);
} catch (error) {
  // Help and version exit 0; anything else is a miswired hook, reported without blocking the prompt (never exit 2).
  if (!(error instanceof CommanderError)) process.stderr.write(`skill-router hook: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof CommanderError && error.exitCode === 0 ? 0 : 1;
}
