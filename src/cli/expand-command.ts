import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { createError } from "../errors.js";
import { readRoots } from "../store/index-meta.js";
import { readManifests } from "../store/manifest-rows.js";
import { servedRootPaths } from "../store/skill-location.js";
import { getSkill, listSkills } from "../store/skill-rows.js";
import type { Skill } from "../skills/types.js";
import { llmOptions } from "../config/llm-options.js";
import { modelOptions } from "../config/model-options.js";
import { addSettingOptions, LLM_FLAGS, settingsOf } from "../config/setting-options.js";
import type { Settings } from "../config/settings.js";
import { formatSummary } from "./index-command.js";

interface ExpandOptionValues {
  export?: string;
  import?: string;
  skill?: string[];
  json?: boolean;
}

export function expandCommand(): Command {
  const command = new Command("expand").description(
    "let a batch API, another LLM or a person write manifests: --export writes one chat-completions request per skill (JSONL), --import loads the answers and updates the index",
  );
  return addSettingOptions(command, ["db", ...LLM_FLAGS])
    .option("--export <file>", "write one self-contained request per skill (OpenAI Batch API input lines); needs --llm-model")
    .option("--import <file>", "load manifests (batch API output lines, or {name, manifest} lines) and re-index with them")
    .option("--skill <name...>", "with --export: only these skills")
    .option("--json", "print the outcome as JSON")
    .action(async (options: ExpandOptionValues, command: Command) => {
      if ((options.export === undefined) === (options.import === undefined)) {
        throw createError("INVALID_ARGUMENT", "give exactly one of --export <file> or --import <file>");
      }
      const { settings } = await settingsOf(command);
      if (options.export !== undefined) await exportRequests(options.export, options, settings);
      else await importResponses(options.import!, options, settings);
    });
}

async function exportRequests(file: string, options: ExpandOptionValues, settings: Settings): Promise<void> {
  const model = settings.llmModel?.trim();
  if (!model) throw createError("LLM_NOT_CONFIGURED", "--export needs the model the requests are for: --llm-model or ROUTER_LLM_MODEL");
  const { openIndexForRead } = await import("../store/database.js");
  const db = openIndexForRead(settings.db);
  let skills: Skill[];
  let manifests: ReturnType<typeof readManifests>;
  try {
    skills = listSkills(db, settings.skillsRoot).map((summary) => getSkill(db, summary.name, settings.skillsRoot)!);
    manifests = readManifests(db);
  } finally {
    db.close();
  }
  const unknown = (options.skill ?? []).filter((name) => !skills.some((skill) => skill.name === name));
  if (unknown.length > 0) throw createError("SKILL_NOT_FOUND", `No skill named ${unknown.map((name) => `"${name}"`).join(", ")} in ${settings.db}`, { names: unknown });
  // Hand-written and example-query manifests win over any LLM's: asking for them would be paying for nothing.
  const selected = skills.filter((skill) => (options.skill ?? [skill.name]).includes(skill.name));
  const wanted = selected.filter((skill) => !["file", "examples"].includes(manifests.get(skill.id)?.source ?? ""));
  const [{ manifestRequestLines }, { PROMPT_VERSION }] = await Promise.all([import("../expand/request-lines.js"), import("../expand/expansion-prompt.js")]);
  const lines = manifestRequestLines(wanted, skills, model);
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join("\n") + (lines.length > 0 ? "\n" : ""));
  const outcome = { file, requests: lines.length, skipped: selected.length - wanted.length, model, promptVersion: PROMPT_VERSION };
  process.stdout.write(
    options.json
      ? `${JSON.stringify(outcome, null, 2)}\n`
      : `Wrote ${lines.length} requests for ${model} to ${file}${outcome.skipped > 0 ? ` (${outcome.skipped} skills skipped: hand-written or example-query manifests)` : ""}\n` +
          `Run them (a batch API, any OpenAI-compatible server), then: router expand --import <responses.jsonl>\n`,
  );
}

async function importResponses(file: string, options: ExpandOptionValues, settings: Settings): Promise<void> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw createError("PATH_NOT_FOUND", `Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { path: file });
  }
  const { readResponseLines } = await import("../expand/response-lines.js");
  const { imports, problems } = readResponseLines(text, path.basename(file));
  if (imports.size === 0) {
    throw createError("MANIFEST_IMPORT_INVALID", `No usable manifest in ${file}${problems.length > 0 ? `:\n  ${problems.slice(0, 10).join("\n  ")}` : " (the file is empty)"}`, { problems });
  }
  for (const problem of problems) process.stderr.write(`note: ${problem}\n`);

  const { openIndexForRead } = await import("../store/database.js");
  const db = openIndexForRead(settings.db);
  let roots: string[];
  let known: Set<string>;
  try {
    // Where the skills are now: ROUTER_SKILLS_ROOT re-bases an index that moved (see store/skill-location.ts).
    roots = servedRootPaths(readRoots(db), settings.skillsRoot);
    known = new Set(listSkills(db).flatMap((skill) => [skill.name, skill.id]));
  } finally {
    db.close();
  }
  for (const key of imports.keys()) if (!known.has(key)) process.stderr.write(`note: no skill "${key}" in ${settings.db}; its manifest is ignored\n`);
  if (roots.length === 0) throw createError("INDEX_NOT_FOUND", `${settings.db} has no indexed paths: run \`router index <path>\` first`);

  // The import is an index run of the same paths: manifests, texts and vectors change together, in one transaction.
  const { runIndex } = await import("../indexer/run-index.js");
  const summary = await runIndex({
    paths: roots,
    db: settings.db,
    models: modelOptions(settings),
    expansion: { expander: settings.expander, llm: llmOptions(settings), imports, onNotice: (message) => process.stderr.write(`note: ${message}\n`) },
  });
  process.stdout.write(options.json ? `${JSON.stringify(summary, null, 2)}\n` : `Imported ${summary.expansion.sources.import} manifests from ${file}\n${formatSummary(summary, false)}`);
}
