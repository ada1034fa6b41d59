import { Command, InvalidArgumentError, Option } from "commander";
import { DEFAULT_K, MAX_CONTEXT_MESSAGES, MAX_K } from "../contract/limits.js";
import type { NoneReason, OfferReason, RankedSkill, RouteResult } from "../contract/route.js";
import { modelOptions } from "../config/model-options.js";
import { addSettingOptions, settingsOf } from "../config/setting-options.js";
import { parseShare } from "./number-arguments.js";
import { missingEvidence, nearMissNamed, notRetrieved } from "../contract/missing-evidence.js";
import { matchedTerms } from "../contract/matched-terms.js";

interface RouteCommandOptions {
  json?: boolean;
  k: number;
  threshold?: number;
  skills?: string[];
  exclude?: string[];
  context: string[];
  multi?: boolean;
  body?: boolean;
  offer: boolean;
}

export function routeCommand(): Command {
  const command = new Command("route")
    .description("route one message: which skill to inject, a short list to offer the agent, or none, and why")
    .argument("<query>", "the user's message; $name in it, or /name opening it, calls that skill (quote $name with single quotes in a shell)");
  return addSettingOptions(command, ["db"])
    .option("--json", "print the full result as JSON (the same shape as POST /route)")
    .addOption(new Option("-k, --k <n>", `ranked skills to show (at most ${MAX_K})`).default(DEFAULT_K).argParser(parseK))
    .addOption(new Option("--threshold <p>", "in-scope threshold to use instead of the learned one").argParser(parseShare))
    .addOption(new Option("--skills <names>", "choose only among these (comma-separated); the rest of the index is still scored").argParser(parseList))
    .addOption(new Option("--exclude <names>", "never route to these (comma-separated)").argParser(parseList))
    .addOption(new Option("--context <message>", `an earlier message of the conversation (repeatable up to ${MAX_CONTEXT_MESSAGES} times, oldest first)`).default([]).argParser(collectContext))
    .option("--multi", "inject every skill above the threshold, up to k")
    .option("--no-offer", "answer only inject or none, never a list for the agent to choose from")
    .option("--body", "also print what would be injected")
    .action(async (query: string, options: RouteCommandOptions, command: Command) => {
      const { settings } = await settingsOf(command);
      const { createRouter } = await import("../route/router.js");
      const router = await createRouter({ db: settings.db, models: modelOptions(settings), skillsRoot: settings.skillsRoot });
      try {
        const result = await router.route(query, {
          k: options.k,
          context: options.context,
          ...(options.threshold !== undefined ? { threshold: options.threshold } : {}),
          ...(options.skills ? { skills: options.skills } : {}),
          ...(options.exclude ? { exclude: options.exclude } : {}),
          ...(options.multi ? { multi: true } : {}),
          ...(options.offer ? {} : { offer: false }),
          ...(options.body ? { include: ["body" as const] } : {}),
        });
        process.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : formatResult(result));
      } finally {
        await router.close();
      }
    });
}

// Why the answer is none, in the figures behind it; the other reasons read as their names.
const WHY_NOT_INJECTED: Partial<Record<NoneReason | OfferReason, (result: RouteResult) => string>> = {
  below_threshold: (result) => `in scope ${result.in_scope.toFixed(2)} < threshold ${result.threshold.toFixed(2)}`,
  small_margin: (result) => `the top two are too close (margin < ${result.min_margin.toFixed(2)})`,
  no_evidence: (result) => `no evidence: ${missingEvidence(result)}`,
  near_miss: (result) => `near miss: ${nearMissNamed(result)}`,
  not_retrieved: (result) => `not retrieved: ${notRetrieved(result)}`,
  unsure: (result) => `not sure${result.offer?.holds_right_skill == null ? "" : `; lists like it held the right skill for ${Math.round(100 * result.offer.holds_right_skill)}% of held-out requests`}`,
  risky: () => "the best skill is flagged risky: never injected unless called by name",
};

/** One line a person reads at a glance, then the runners-up. */
export function formatResult(result: RouteResult): string {
  const lines: string[] = [];
  const [best, ...rest] = result.skills;
  const why = (result.reason && WHY_NOT_INJECTED[result.reason]?.(result)) ?? (result.reason ?? "").replace(/_/g, " ");
  if (result.decision === "inject") {
    for (const name of result.selected) lines.push(`-> ${describe(result.skills.find((skill) => skill.name === name)!)}${name === result.invoked ? "  (called by name)" : ""}`);
  } else if (result.offer) {
    lines.push(`?> offer ${result.offer.skills.map((skill) => skill.name).join(", ")} for the agent to choose from (${why})  +${result.offer.tokens.toLocaleString("en-US")} tokens`);
  } else {
    lines.push(`-> none (${why})`);
    if (best) lines.push(`   best was ${describe(best)}`);
  }
  const shown = result.decision === "none" ? rest : result.skills.filter((skill) => !result.selected.includes(skill.name));
  shown.forEach((skill) => lines.push(`   ${describe(skill)}`));
  for (const skill of result.skills) if (skill.risks.length > 0) lines.push(`   (${skill.name} is flagged risky: ${[...new Set(skill.risks.map((risk) => risk.warning))].join("; ")})`);
  for (const warning of result.warnings) lines.push(`   (${warning})`);
  lines.push(`   ${result.timing_ms.total.toFixed(1)} ms, index v${result.index_version}, ${result.embedder ?? "no embedder"}`);
  for (const skill of result.skills) if (skill.body !== undefined && result.selected.includes(skill.name)) lines.push("", skill.body);
  return `${lines.join("\n")}\n`;
}

function describe(skill: RankedSkill): string {
  const parts = [`${skill.name} ${skill.confidence.toFixed(2)}`];
  const matched = matchedTerms(skill);
  if (matched.length > 0) parts.push(`matched: ${matched.slice(0, 5).join(", ")}`);
  if (skill.nearest_query) parts.push(`like: "${truncate(skill.nearest_query, 60)}"${skill.nearest_from_use ? " (from use)" : ""}`);
  if (skill.negative) parts.push(`but near: "${truncate(skill.negative, 40)}"`);
  parts.push(`+${skill.tokens.toLocaleString("en-US")} tokens`);
  return parts.join("  ");
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

// The route contract's bounds, so the CLI refuses what the router would refuse, with commander's usage error.
function parseK(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > MAX_K) throw new InvalidArgumentError(`must be an integer from 1 to ${MAX_K}`);
  return number;
}

function parseList(value: string): string[] {
  return value
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

function collectContext(value: string, previous: string[]): string[] {
  if (previous.length === MAX_CONTEXT_MESSAGES) throw new InvalidArgumentError(`at most ${MAX_CONTEXT_MESSAGES} context messages`);
  return [...previous, value];
}
