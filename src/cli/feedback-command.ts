import { readFileSync, writeFileSync } from "node:fs";
import { Command } from "commander";
import { modelOptions } from "../config/model-options.js";
import { addSettingOptions, settingsOf } from "../config/setting-options.js";
import type { FeedbackEntry } from "../contract/feedback.js";
import { createError } from "../errors.js";
import type { Settings } from "../config/settings.js";

// Waiting for an index run that holds the write lock: a person at a terminal waits a while, then is told why.
const CLI_WAIT_MS = 30_000;

export function feedbackCommand(): Command {
  return new Command("feedback")
    .description("say which skill should have been injected for a message (or none), and review what the index learned from it")
    .addCommand(addCommand(), { isDefault: true })
    .addCommand(listCommand())
    .addCommand(forgetCommand())
    .addCommand(exportCommand())
    .addCommand(importCommand())
    .addCommand(applyCommand());
}

function addCommand(): Command {
  const command = new Command("add")
    .description("record what should have been injected for a message (`router feedback <query> --skill <name>` or `--none`)")
    .argument("<query>", "the user's message, as it was routed");
  return addSettingOptions(command, ["db"])
    .option("--skill <name>", "the skill that should have been injected")
    .option("--none", "no skill should have been injected")
    .option("--client <name>", "who says so (each client's share of one skill's feedback is capped)", "cli")
    .option("--json", "print what was stored as JSON (the shape POST /feedback answers)")
    .action(async (query: string, options: { skill?: string; none?: boolean; client: string; json?: boolean }, command: Command) => {
      if ((options.skill === undefined) === (options.none === undefined)) throw createError("INVALID_ARGUMENT", "give exactly one of --skill <name> or --none");
      const { settings } = await settingsOf(command);
      const router = await routerFor(settings);
      const store = await storeFor(settings);
      try {
        const { recordFeedbackIn, toFeedbackEntry } = await import("../feedback/record-feedback.js");
        const { row, duplicate } = await recordFeedbackIn(store, router, { query, skill: options.skill ?? null }, options.client, null);
        const entry = toFeedbackEntry(row);
        const applies =
          store.kind === "index"
            ? "on the next `router index` or `router feedback apply` (a running server applies what it receives itself)"
            : `on the next \`router index\` or \`router feedback apply\`, which fold ${store.where} in`;
        process.stdout.write(
          options.json ? `${JSON.stringify({ stored: entry, duplicate, applies }, null, 2)}\n` : `${duplicate ? "already said" : "stored"} #${entry.id}: ${entry.note}\napplies ${applies}\n`,
        );
      } finally {
        await store.close();
        await router.close();
      }
    });
}

function listCommand(): Command {
  return addSettingOptions(new Command("list").description("every piece of feedback the store holds (the index, or ROUTER_FEEDBACK_URL's), and what each taught"), ["db"])
    .option("--skill <name>", "only feedback that teaches this skill something (an example of it, or a negative)")
    .option("--json", "print JSON")
    .action(async (options: { skill?: string; json?: boolean }, command: Command) => {
      const { settings } = await settingsOf(command);
      const { toFeedbackEntry } = await import("../feedback/record-feedback.js");
      const store = await storeFor(settings);
      const entries = await store
        .list(options.skill)
        .then((rows) => rows.map(toFeedbackEntry))
        .finally(() => store.close());
      if (options.json) {
        process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
        return;
      }
      for (const entry of entries) process.stdout.write(`${listLine(entry)}\n`);
      process.stderr.write(`${entries.length} pieces of feedback in ${store.where}\n${await foldedLine(settings.db)}\n`);
    });
}

/** One entry as a person scans a list: id, request, the skill it names, what it taught. */
function listLine(entry: FeedbackEntry): string {
  const times = entry.times > 1 ? ` (said ${entry.times} times)` : "";
  return `#${entry.id}  "${entry.query}"  -> ${entry.skill ?? "none"}  [${entry.role}, ${entry.client}${times}]  ${entry.note}`;
}

function forgetCommand(): Command {
  return addSettingOptions(new Command("forget").description("remove feedback: by id, every piece about a skill, or all").argument("[ids...]", "ids from `router feedback list`"), ["db"])
    .option("--skill <name>", "every piece that teaches this skill something")
    .option("--all", "every piece of feedback")
    .action(async (ids: string[], options: { skill?: string; all?: boolean }, command: Command) => {
      if ([ids.length > 0, options.skill !== undefined, options.all === true].filter(Boolean).length !== 1) {
        throw createError("INVALID_ARGUMENT", "give ids, or --skill <name>, or --all");
      }
      const numbers = ids.map((id) => {
        const value = Number(id.replace(/^#/, ""));
        if (!Number.isInteger(value) || value < 1) throw createError("INVALID_ARGUMENT", `"${id}" is not a feedback id (see \`router feedback list\`)`);
        return value;
      });
      const { settings } = await settingsOf(command);
      const store = await storeFor(settings);
      const which = options.all ? { all: true as const } : options.skill !== undefined ? { skill: options.skill } : { ids: numbers };
      const removed = await store.forget(which).finally(() => store.close());
      process.stdout.write(`removed ${removed}; the index forgets them on the next \`router index\` or \`router feedback apply\`\n`);
    });
}

function exportCommand(): Command {
  return addSettingOptions(new Command("export").description("write every piece of feedback to a JSONL file, one {query, skill, client} line each").argument("<file>"), ["db"]).action(
    async (file: string, _options: unknown, command: Command) => {
      const { settings } = await settingsOf(command);
      const store = await storeFor(settings);
      const entries = await store.list().finally(() => store.close());
      writeFileSync(file, entries.map((entry) => `${JSON.stringify({ query: entry.query, skill: entry.skill, client: entry.client })}\n`).join(""));
      process.stdout.write(`wrote ${entries.length} pieces of feedback to ${file}\n`);
    },
  );
}

function importCommand(): Command {
  return addSettingOptions(new Command("import").description("record every {query, skill} line of a JSONL file (what `router feedback export` writes), judged against this index").argument("<file>"), [
    "db",
  ]).action(async (file: string, _options: unknown, command: Command) => {
    const { settings } = await settingsOf(command);
    const { feedbackLines } = await import("../feedback/feedback-lines.js");
    const { lines, problems } = feedbackLines(readText(file), file);
    for (const problem of problems) process.stderr.write(`note: ${problem}\n`);
    if (lines.length === 0) throw createError("FEEDBACK_IMPORT_INVALID", `No usable feedback line in ${file}`, { problems });
    const router = await routerFor(settings);
    const store = await storeFor(settings);
    try {
      const { recordFeedbackIn } = await import("../feedback/record-feedback.js");
      const counts = { stored: 0, duplicate: 0, refused: 0 };
      for (const line of lines) {
        try {
          const { duplicate } = await recordFeedbackIn(store, router, { query: line.query, skill: line.skill }, line.client, null);
          counts[duplicate ? "duplicate" : "stored"]++;
        } catch (error) {
          counts.refused++;
          process.stderr.write(`note: ${line.origin}: ${(error as Error).message}\n`);
        }
      }
      process.stdout.write(`imported ${counts.stored}, ${counts.duplicate} already said, ${counts.refused} refused; applies on the next \`router index\` or \`router feedback apply\`\n`);
    } finally {
      await store.close();
      await router.close();
    }
  });
}

function applyCommand(): Command {
  return addSettingOptions(new Command("apply").description("fold the feedback into the index now: its requests become examples and negatives of their skills"), ["db"])
    .option("--json", "print the outcome as JSON")
    .action(async (options: { json?: boolean }, command: Command) => {
      const { settings } = await settingsOf(command);
      const { applyFeedbackRun } = await import("../indexer/apply-feedback-run.js");
      const store = await storeFor(settings);
      const outcome = await applyFeedbackRun(settings.db, modelOptions(settings), store).finally(() => store.close());
      const { feedback } = outcome;
      process.stdout.write(
        options.json
          ? `${JSON.stringify(outcome, null, 2)}\n`
          : `index v${outcome.indexVersion}: ${feedback.examples} examples from use (${feedback.lone} not yet agreed with), ${feedback.negatives} negatives, ${feedback.skills} skills changed${feedback.embedded > 0 ? `, ${feedback.embedded} requests embedded` : ""}\n` +
              (outcome.refit ? `decision refit from ${outcome.refit.examples} confirmed requests and ${outcome.refit.none} that no skill should answer\n` : ""),
      );
    });
}

async function routerFor(settings: Settings) {
  const { createRouter } = await import("../route/router.js");
  return createRouter({ db: settings.db, models: modelOptions(settings), skillsRoot: settings.skillsRoot });
}

/** The configured feedback store: ROUTER_FEEDBACK_URL's, else the index (a person at a terminal waits a while for its lock). */
async function storeFor(settings: Settings) {
  const { createFeedbackStore } = await import("../feedback/create-feedback-store.js");
  return createFeedbackStore(settings, { waitMs: CLI_WAIT_MS });
}

/** Which of the store's rows the index's current version holds, as `router index` or `router feedback apply` last folded them. */
async function foldedLine(db: string): Promise<string> {
  const { foldedFeedbackOf } = await import("../feedback/folded-feedback.js");
  const folded = foldedFeedbackOf(db);
  if (!folded) return `${db} has folded no feedback in yet`;
  return `${db} holds ${folded.rows} of them from ${folded.store === "index" ? "itself" : folded.store}, up to revision ${folded.revision} (folded ${folded.at})`;
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw createError("PATH_NOT_FOUND", `Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { path: file });
  }
}
