import os from "node:os";
import path from "node:path";
import { EXPANDER_CHOICES, LLM_DEFAULTS } from "../expand/llm-settings.js";
import { DEFAULT_HUB_ENDPOINT } from "../models/hub-client.js";
import { MODEL_DTYPES } from "../models/model-catalogue.js";
import { DEFAULT_MODELS_DIR, EMBEDDER_CHOICES } from "../models/model-settings.js";
import { QUERY_BATCHING_DEFAULTS } from "../models/query-encoder.js";
import { RISKY_POLICIES } from "../skills/risk-scan.js";
import { DEFAULT_DB_PATH } from "../store/default-path.js";
import { FEEDBACK_LIMITS } from "../store/feedback-limits.js";
import { isLoopbackAddress } from "./loopback.js";
import { DECISION_LOG_MODES, LOG_LEVELS } from "./setting-choices.js";
import type { Settings } from "./settings-schema.js";

// What every command's help and `router doctor` need of the settings, without zod: the schema that checks them
// (settings-schema.ts) loads only when a command runs.

export type { Settings } from "./settings-schema.js";
export type SettingKey = keyof Settings;

export const DEFAULT_SETTINGS: Settings = {
  db: DEFAULT_DB_PATH,
  host: "127.0.0.1",
  port: 8787,
  apiKey: undefined,
  metricsPublic: false,
  corsOrigins: [],
  allowedHosts: [],
  maxBodyBytes: 1024 * 1024,
  requestTimeoutMs: 5_000,
  shutdownGraceMs: 10_000,
  reloadIntervalMs: 2_000,
  watch: [],
  watchDebounceMs: 1_000,
  logLevel: "info",
  decisionLog: "hash",
  explorer: true,
  tieBreak: false,
  embedWorkers: defaultEmbedWorkers(),
  embedMaxBatch: QUERY_BATCHING_DEFAULTS.maxBatch,
  embedBatchWindowMs: QUERY_BATCHING_DEFAULTS.batchWindowMs,
  skillsRoot: [],
  modelsDir: DEFAULT_MODELS_DIR,
  embedder: "auto",
  modelDtype: undefined,
  modelThreads: 1,
  allowRemoteModels: false,
  hubEndpoint: DEFAULT_HUB_ENDPOINT,
  hubToken: undefined,
  expander: "auto",
  llmModel: undefined,
  llmBaseUrl: undefined,
  llmApiKey: undefined,
  llmConcurrency: LLM_DEFAULTS.concurrency,
  llmTimeoutMs: LLM_DEFAULTS.timeoutMs,
  llmRetries: LLM_DEFAULTS.retries,
  evalCacheDir: evalCacheIn(path.join(os.homedir(), ".cache")),
  risky: "warn",
  feedbackUrl: undefined,
  feedbackSkillHourly: FEEDBACK_LIMITS.perSkillInWindow,
  feedbackSenderHourly: FEEDBACK_LIMITS.perSenderInWindow,
};

/** The defaults in an environment: only the eval cache's depends on it (XDG_CACHE_HOME, as the XDG spec says). */
export function defaultSettings(env: Environment): Settings {
  return env.XDG_CACHE_HOME ? { ...DEFAULT_SETTINGS, evalCacheDir: evalCacheIn(env.XDG_CACHE_HOME) } : DEFAULT_SETTINGS;
}

/** Where `router eval` keeps the indexes it builds of eval sets' skills. */
function evalCacheIn(cacheHome: string): string {
  return path.join(cacheHome, "skill-router", "eval");
}

/** Environment variables by name, as a process has them. */
export type Environment = Record<string, string | undefined>;

/**
 * How a setting is written outside a config file: "list" is comma-separated in the environment, "paths" separated
 * by the platform's path delimiter with empty entries kept (they hold a position).
 */
export type SettingKind = "string" | "integer" | "boolean" | "list" | "paths";

export interface SettingInfo {
  /** The environment variable; none for a setting whose default only derives from the environment. */
  env?: string;
  /** The flag, on the commands that read the setting; secrets have none, so they never show in `ps` or shell history. A `--no-` flag can only turn its setting off. */
  flag?: string;
  kind: SettingKind;
  description: string;
  secret?: boolean;
  /** The default in words, where its value depends on the machine. */
  shownDefault?: string;
  /** Paths in a config file are relative to the file. */
  path?: boolean;
}

export const SETTINGS: Record<SettingKey, SettingInfo> = {
  db: { env: "ROUTER_DB", flag: "--db <file>", kind: "string", description: "index file", path: true },
  host: { env: "ROUTER_HOST", flag: "--host <host>", kind: "string", description: "address to bind (loopback unless you mean otherwise)" },
  port: { env: "ROUTER_PORT", flag: "--port <port>", kind: "integer", description: "port to listen on (0 picks a free one)" },
  apiKey: { env: "ROUTER_API_KEY", kind: "string", secret: true, description: "require Authorization: Bearer <key> on every endpoint but /healthz" },
  metricsPublic: { env: "ROUTER_METRICS_PUBLIC", flag: "--metrics-public", kind: "boolean", description: "serve /metrics without the API key" },
  corsOrigins: { env: "ROUTER_CORS_ORIGINS", flag: "--cors-origins <origins>", kind: "list", description: "browser origins allowed by CORS, comma-separated (CORS is off when empty)" },
  allowedHosts: {
    env: "ROUTER_ALLOWED_HOSTS",
    flag: "--allowed-hosts <hosts>",
    kind: "list",
    description: 'host names a server without an API key answers besides loopback and IP addresses, comma-separated (".example.com": it and its subdomains; "*": any name)',
  },
  maxBodyBytes: { env: "ROUTER_MAX_BODY_BYTES", flag: "--max-body-bytes <n>", kind: "integer", description: "largest request body accepted" },
  requestTimeoutMs: { env: "ROUTER_REQUEST_TIMEOUT_MS", flag: "--request-timeout-ms <ms>", kind: "integer", description: "longest a request may take before it is answered 503 REQUEST_TIMEOUT" },
  shutdownGraceMs: { env: "ROUTER_SHUTDOWN_GRACE_MS", flag: "--shutdown-grace-ms <ms>", kind: "integer", description: "how long SIGTERM waits for in-flight requests" },
  reloadIntervalMs: { env: "ROUTER_RELOAD_INTERVAL_MS", flag: "--reload-interval-ms <ms>", kind: "integer", description: "how often to look for a new index version (0: never)" },
  watch: { env: "ROUTER_WATCH", flag: "--watch <dir...>", kind: "list", description: "skill folders to index at start and re-index when they change", path: true },
  watchDebounceMs: { env: "ROUTER_WATCH_DEBOUNCE_MS", flag: "--watch-debounce-ms <ms>", kind: "integer", description: "quiet time after a change before re-indexing" },
  logLevel: { env: "ROUTER_LOG_LEVEL", flag: "--log-level <level>", kind: "string", description: `log level: ${LOG_LEVELS.join(", ")}` },
  decisionLog: { env: "ROUTER_DECISION_LOG", flag: "--decision-log <mode>", kind: "string", description: `per-route log line: ${DECISION_LOG_MODES.join(", ")} (hash logs the query's sha256)` },
  explorer: { env: "ROUTER_EXPLORER", flag: "--no-explorer", kind: "boolean", description: "turn off the route explorer page (/explorer) and its eval endpoint (POST /eval)" },
  tieBreak: {
    env: "ROUTER_TIE_BREAK",
    flag: "--tie-break",
    kind: "boolean",
    description: "let the cross-encoder order candidates tied for first (needs `router models pull reranker`; unmeasured, so off)",
  },
  embedWorkers: {
    env: "ROUTER_EMBED_WORKERS",
    flag: "--embed-workers <n>",
    kind: "integer",
    description: "worker threads embedding queries, each with its own copy of the model",
    shownDefault: "one per core beyond the first, at most 2",
  },
  embedMaxBatch: { env: "ROUTER_EMBED_MAX_BATCH", flag: "--embed-max-batch <n>", kind: "integer", description: "most queries embedded in one worker call" },
  embedBatchWindowMs: {
    env: "ROUTER_EMBED_BATCH_WINDOW_MS",
    flag: "--embed-batch-window-ms <ms>",
    kind: "integer",
    description: "longest a query waits for others to join its batch while other batches are being embedded (0: never)",
  },
  skillsRoot: {
    env: "ROUTER_SKILLS_ROOT",
    kind: "paths",
    description: `where the indexed roots are served from when they moved since \`router index\`, one folder per root in index order (separated by "${path.delimiter}"; an empty entry keeps its root)`,
    path: true,
  },
  modelsDir: {
    env: "ROUTER_MODELS_DIR",
    flag: "--models-dir <dir>",
    kind: "string",
    description: "folder of model files (<dir>/<hub repo>/...)",
    shownDefault: "models/ of this installation",
    path: true,
  },
  embedder: { env: "ROUTER_EMBEDDER", kind: "string", description: `sentence embedder: ${EMBEDDER_CHOICES.join(", ")} (auto: MiniLM when its files are present, else the offline model)` },
  modelDtype: { env: "ROUTER_MODEL_DTYPE", kind: "string", description: `ONNX export of the MiniLMs and the reranker: ${MODEL_DTYPES.join(", ")}`, shownDefault: "q8 when present, else fp32" },
  modelThreads: { env: "ROUTER_MODEL_THREADS", kind: "integer", description: "onnxruntime threads per model" },
  allowRemoteModels: { env: "ROUTER_ALLOW_REMOTE_MODELS", kind: "boolean", description: "pull a missing, explicitly chosen embedder from the hub on first use" },
  hubEndpoint: { env: "HF_ENDPOINT", flag: "--endpoint <url>", kind: "string", description: "Hugging Face hub address (a mirror)" },
  hubToken: { env: "HF_TOKEN", kind: "string", secret: true, description: "Hugging Face token, for gated or private models" },
  expander: { env: "ROUTER_EXPANDER", flag: "--expander <name>", kind: "string", description: `who writes manifests: ${EXPANDER_CHOICES.join(", ")} (auto: the LLM when one is configured)` },
  llmModel: { env: "ROUTER_LLM_MODEL", flag: "--llm-model <name>", kind: "string", description: "chat model that writes manifests; setting it turns the LLM expander on" },
  llmBaseUrl: {
    env: "OPENAI_BASE_URL",
    flag: "--llm-base-url <url>",
    kind: "string",
    description: "OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1 for Ollama",
    shownDefault: "the OpenAI API",
  },
  llmApiKey: { env: "OPENAI_API_KEY", kind: "string", secret: true, description: "API key of the LLM endpoint (local servers need none)" },
  llmConcurrency: { env: "ROUTER_LLM_CONCURRENCY", flag: "--llm-concurrency <n>", kind: "integer", description: "LLM requests in flight at once" },
  llmTimeoutMs: { env: "ROUTER_LLM_TIMEOUT_MS", flag: "--llm-timeout <ms>", kind: "integer", description: "time out one LLM request after this many milliseconds" },
  llmRetries: {
    env: "ROUTER_LLM_RETRIES",
    flag: "--llm-retries <n>",
    kind: "integer",
    description: "further LLM attempts per skill (rate limits, server errors, timeouts, unusable answers)",
  },
  evalCacheDir: {
    flag: "--cache <dir>",
    kind: "string",
    description: "where `router eval` keeps indexes of eval sets' skills",
    shownDefault: "$XDG_CACHE_HOME/skill-router/eval, or ~/.cache/skill-router/eval",
    path: true,
  },
  risky: {
    env: "ROUTER_RISKY",
    flag: "--risky <policy>",
    kind: "string",
    description: `what \`router index\` does with a skill the risky-skill rules flag: ${RISKY_POLICIES.join(" or ")} (warn indexes and lists it; exclude leaves it out, so it is never injected)`,
  },
  feedbackUrl: {
    env: "ROUTER_FEEDBACK_URL",
    kind: "string",
    secret: true,
    description: "where feedback is kept when not in the index: a PostgreSQL database shared by replicas (postgres://user:password@host/db); `router index` folds it in",
    shownDefault: "the index itself",
  },
  feedbackSkillHourly: {
    env: "ROUTER_FEEDBACK_SKILL_HOURLY",
    kind: "integer",
    description: "new pieces of feedback one skill takes an hour over the network, whoever sends them (the store enforces it: every replica must say the same)",
  },
  feedbackSenderHourly: {
    env: "ROUTER_FEEDBACK_SENDER_HOURLY",
    kind: "integer",
    description: "new pieces of feedback one sender (its API key, else its address) may give an hour, across skills",
  },
};

export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

/** `values` with every setting it leaves out (or sets to undefined) taken from the defaults. */
export function withDefaults(values: Partial<Settings>): Settings {
  const given = Object.fromEntries(SETTING_KEYS.filter((key) => values[key] !== undefined).map((key) => [key, values[key]]));
  return { ...DEFAULT_SETTINGS, ...given };
}

/**
 * One embedding worker per core beyond the first, which the server's own thread needs for HTTP and routing, and at
 * most 2: each holds its own model (about 80 MB), and the one routing thread cannot use more (bench/RESULTS.md, Throughput).
 */
export function defaultEmbedWorkers(cores = os.availableParallelism()): number {
  return Math.min(2, Math.max(1, cores - 1));
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || isLoopbackAddress(host);
}

/** The settings with secrets replaced, fit for logs and `router doctor`. */
export function maskSecrets(settings: Settings): Record<SettingKey, unknown> {
  return Object.fromEntries(SETTING_KEYS.map((key) => [key, SETTINGS[key].secret && settings[key] !== undefined ? "********" : settings[key]])) as Record<SettingKey, unknown>;
}
