import { InvalidArgumentError, Option, type Command } from "commander";
import type { EffectiveSettings } from "./load-settings.js";
import { DEFAULT_SETTINGS, SETTING_KEYS, SETTINGS, type SettingKey, type Settings } from "./settings.js";
import { parseSettingText } from "./setting-text.js";

/** The settings `router serve` takes as flags (and `router doctor`, which shows what serve would run with). */
export const SERVE_FLAGS: SettingKey[] = [
  "db",
  "host",
  "port",
  "metricsPublic",
  "corsOrigins",
  "allowedHosts",
  "maxBodyBytes",
  "requestTimeoutMs",
  "shutdownGraceMs",
  "reloadIntervalMs",
  "watch",
  "watchDebounceMs",
  "logLevel",
  "decisionLog",
  "explorer",
  "tieBreak",
  "embedWorkers",
  "embedMaxBatch",
  "embedBatchWindowMs",
];
/** The flags of the commands that may ask an LLM for manifests. */
export const LLM_FLAGS: SettingKey[] = ["expander", "llmModel", "llmBaseUrl", "llmConcurrency", "llmTimeoutMs", "llmRetries"];

/**
 * Adds `--config` and the flags of these settings. The flags carry no commander defaults or env bindings: the
 * precedence (flags > env > file > defaults) is applied by loadSettings, and the help text names both.
 */
export function addSettingOptions(command: Command, flags: SettingKey[]): Command {
  command.addOption(new Option("--config <file>", "config file, JSON or YAML (env ROUTER_CONFIG)"));
  for (const key of flags) {
    const info = SETTINGS[key];
    const option = new Option(info.flag!, `${info.description} (${[...(info.env ? [`env ${info.env}`] : []), `default ${shownDefault(key)}`].join(", ")})`);
    // Variadic flags (`--watch a b`) arrive as arrays already; other lists are comma-separated like their variables.
    if (info.kind === "integer" || (info.kind === "list" && !info.flag!.includes("..."))) option.argParser((text: string) => parsed(key, text));
    command.addOption(option);
  }
  return command;
}

/**
 * The effective settings of a command: the setting flags given on its command line, then the environment and the
 * config file. The loader (zod, yaml) loads here, when a command runs, not for its --help.
 */
export async function settingsOf(command: Command): Promise<EffectiveSettings> {
  const { loadSettings } = await import("./load-settings.js");
  const flags: Partial<Settings> & { config?: string } = {};
  const config = command.getOptionValue("config");
  if (typeof config === "string") flags.config = config;
  for (const key of SETTING_KEYS) {
    const flag = SETTINGS[key].flag;
    if (!flag || !command.options.some((option) => option.flags === flag)) continue;
    const attribute = new Option(flag).attributeName();
    if (command.getOptionValueSource(attribute) === "cli") (flags as Record<string, unknown>)[key] = command.getOptionValue(attribute);
  }
  return loadSettings({ flags });
}

function shownDefault(key: SettingKey): string {
  const fallback = DEFAULT_SETTINGS[key];
  return SETTINGS[key].shownDefault ?? (Array.isArray(fallback) ? (fallback.length > 0 ? fallback.join(",") : "none") : fallback === undefined ? "none" : String(fallback));
}

function parsed(key: SettingKey, text: string): unknown {
  const value = parseSettingText(SETTINGS[key].kind, text);
  if (value === undefined) throw new InvalidArgumentError(`expected a whole number, got "${text}"`);
  return value;
}
