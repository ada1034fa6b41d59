import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The modules whose code decides a skill's risk flags: risk-scan and every module of ours it imports (a test keeps the list whole). */
export const FLAGGING_MODULES = ["risk-scan", "risk-rules", "risk-rule-data", "risk-installers", "hidden-text"];

let version: string | undefined;

/**
 * The risk rules' version, part of the key a skill's flags are stored under (skills/risk-key.ts): a hash of the code
 * of the modules that flag, so any edit to them has every skill read again, with no number to remember to bump.
 */
export function riskRulesVersion(): string {
  version ??= codeVersion();
  return version;
}

function codeVersion(): string {
  // Run from src (.ts) or from dist (.js): the flagging modules sit beside this one, with its extension.
  const extension = path.extname(fileURLToPath(import.meta.url));
  const hash = createHash("sha256");
  try {
    for (const name of FLAGGING_MODULES) hash.update(readFileSync(new URL(`./${name}${extension}`, import.meta.url))).update("\u0000");
  } catch {
    // Code bundled out of its files cannot be read: each process is a version of its own, and flags are never reused.
    hash.update(randomUUID());
  }
  return hash.digest("hex").slice(0, 16);
}
