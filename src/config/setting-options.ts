import { InvalidArgumentError, Option, type Command } from "commander";
import { loadSettings, type EffectiveSettings } from "./load-settings.js";
import { DEFAULT_SETTINGS, SETTING_KEYS, SETTINGS, type SettingKey, type Settings } from "./settings.js";
import { parseSettingText } from "./setting-text.js";

/**
 * Adds `--config` and one flag per setting. The flags carry no commander defaults or env bindings: the
 * precedence (flags > env > file > defaults) is applied by loadSettings, and the help text names both.
 */
export function addSettingOptions(command: Command): Command {
  command.addOption(new Option("--config <file>", "config file, JSON or YAML (env ROUTER_CONFIG)"));
  for (const key of SETTING_KEYS) {
    const info = SETTINGS[key];
    if (!info.flag) continue;
    const fallback = DEFAULT_SETTINGS[key];
    const shown = Array.isArray(fallback) ? (fallback.length > 0 ? fallback.join(",") : "none") : String(fallback);
    const option = new Option(info.flag, `${info.description} (env ${info.env}, default ${shown})`);
    // Variadic flags (`--watch a b`) arrive as arrays already; other lists are comma-separated like their variables.
    if (info.kind === "integer" || (info.kind === "list" && !info.flag.includes("..."))) option.argParser((text: string) => parsed(key, text));
    command.addOption(option);
  }
  return command;
}

/** The effective settings for the flags commander parsed. */
export function settingsFromOptions(options: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): EffectiveSettings {
  const flags: Partial<Settings> & { config?: string } = {};
  if (typeof options.config === "string") flags.config = options.config;
  for (const key of SETTING_KEYS) {
    const flag = SETTINGS[key].flag;
    // Commander sets a lone `--no-` flag's value to true when it is absent; only false says the flag was given.
    const given = flag?.startsWith("--no-") ? options[key] === false : options[key] !== undefined;
    if (flag && given) (flags as Record<string, unknown>)[key] = options[key];
  }
  return loadSettings({ flags, env });
}

function parsed(key: SettingKey, text: string): unknown {
  const value = parseSettingText(SETTINGS[key].kind, text);
  if (value === undefined) throw new InvalidArgumentError(`expected a whole number, got "${text}"`);
  return value;
}
