import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { z } from "zod";
import { createError } from "../errors.js";
import { settingsSchema } from "./settings-schema.js";
import { defaultSettings, SETTING_KEYS, SETTINGS, type Environment, type SettingKey, type Settings } from "./settings.js";
import { parseSettingText } from "./setting-text.js";

export type SettingSource = "default" | "file" | "env" | "flag";

/** The settings in force, where each one came from, and the config file read (if any). */
export interface EffectiveSettings {
  settings: Settings;
  sources: Record<SettingKey, SettingSource>;
  configFile: string | undefined;
}

export interface SettingInputs {
  /** Values from command-line flags (already parsed), keyed by setting; `config` names the config file. */
  flags?: Partial<Settings> & { config?: string };
  /** The process's environment unless given (tests give their own). */
  env?: Environment;
}

/**
 * The one way every command reads its settings: flags beat the environment, which beats the config file (`--config`
 * or ROUTER_CONFIG), which beats the defaults. The only reader of process.env in src/ (a lint rule keeps it so).
 */
export function loadSettings({ flags = {}, env = process.env }: SettingInputs = {}): EffectiveSettings {
  const { config, ...flagValues } = flags;
  const configFile = config ?? (env.ROUTER_CONFIG || undefined);
  const layers: [SettingSource, Partial<Settings>][] = [
    ["file", configFile ? readConfigFile(configFile) : {}],
    ["env", fromEnv(env)],
    ["flag", Object.fromEntries(Object.entries(flagValues).filter(([, value]) => value !== undefined))],
  ];
  const merged: Record<string, unknown> = { ...defaultSettings(env) };
  const sources = Object.fromEntries(SETTING_KEYS.map((key) => [key, "default"])) as Record<SettingKey, SettingSource>;
  for (const [source, values] of layers) {
    for (const [key, value] of Object.entries(values)) {
      merged[key] = value;
      sources[key as SettingKey] = source;
    }
  }
  const parsed = settingsSchema.safeParse(merged);
  if (!parsed.success) throw invalid(parsed.error, (key) => where(key, sources[key], configFile));
  return { settings: parsed.data, sources, configFile };
}

/** A JSON or YAML file of settings by name; relative paths in it are relative to the file. */
function readConfigFile(file: string): Partial<Settings> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw createError("INVALID_ARGUMENT", `Cannot read the config file ${file}: ${(error as Error).message}`, { file });
  }
  let data: unknown;
  try {
    data = path.extname(file).toLowerCase() === ".json" ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw createError("INVALID_ARGUMENT", `The config file ${file} is not valid ${path.extname(file).toLowerCase() === ".json" ? "JSON" : "YAML"}: ${(error as Error).message}`, { file });
  }
  if (data === null || data === undefined) return {};
  const parsed = settingsSchema.partial().safeParse(data);
  if (!parsed.success) throw invalid(parsed.error, (key) => `${key} in ${file}`);
  const folder = path.dirname(path.resolve(file));
  const values: Record<string, unknown> = parsed.data;
  // An empty entry of skillsRoot holds a root's position: it stays empty.
  const resolve = (value: string) => (value === "" ? value : path.resolve(folder, value));
  for (const key of SETTING_KEYS.filter((key) => SETTINGS[key].path && values[key] !== undefined)) {
    const value = values[key] as string | string[];
    values[key] = Array.isArray(value) ? value.map(resolve) : resolve(value);
  }
  return values as Partial<Settings>;
}

/** YAML's parser, loaded only for a YAML config file: most commands run without one, and it takes tens of ms to load. */
function parseYaml(text: string): unknown {
  return (createRequire(import.meta.url)("yaml") as typeof import("yaml")).parse(text);
}

function fromEnv(env: Environment): Partial<Settings> {
  const values: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const name = SETTINGS[key].env;
    const text = name === undefined ? undefined : env[name];
    if (text === undefined || text === "") continue;
    const value = parseSettingText(SETTINGS[key].kind, text);
    if (value === undefined) throw createError("INVALID_ARGUMENT", `${name} must be ${describeKind(key)}; got "${text}"`, { setting: key });
    values[key] = value;
  }
  return values as Partial<Settings>;
}

function describeKind(key: SettingKey): string {
  const kind = SETTINGS[key].kind;
  return kind === "integer" ? "a whole number" : kind === "boolean" ? "true or false (also 1/0, yes/no, on/off)" : "text";
}

/** Names a setting the way its source spells it: the flag, the variable, or the key in the file. */
function where(key: SettingKey, source: SettingSource, configFile: string | undefined): string {
  if (source === "flag") return SETTINGS[key].flag!.split(" ")[0]!;
  if (source === "env") return SETTINGS[key].env!;
  if (source === "file") return `${key} in ${configFile}`;
  return key;
}

function invalid(error: z.ZodError, name: (key: SettingKey) => string): Error {
  const problems = error.issues.map((issue) => {
    const key = issue.path[0];
    if (issue.code === "unrecognized_keys") return `unknown setting${issue.keys.length > 1 ? "s" : ""} ${issue.keys.join(", ")} (known: ${SETTING_KEYS.join(", ")})`;
    return typeof key === "string" && key in SETTINGS ? `${name(key as SettingKey)}: ${issue.message}` : issue.message;
  });
  return createError("INVALID_ARGUMENT", `Invalid configuration: ${problems.join("; ")}`, { problems });
}
