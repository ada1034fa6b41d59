import os from "node:os";
import { z } from "zod";
import { QUERY_BATCHING_DEFAULTS } from "../models/query-encoder.js";
import { DEFAULT_DB_PATH } from "../store/default-path.js";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
/** How the decision log records a query: its sha256 (default), its text, or no decision log at all. */
export const DECISION_LOG_MODES = ["hash", "query", "off"] as const;

const milliseconds = (max: number) => z.number().int().min(0).max(max);

/** Every setting of `router serve`, validated the same way whichever source it came from. */
export const settingsSchema = z
  .object({
    db: z.string().min(1),
    host: z.string().min(1),
    port: z.number().int().min(0).max(65_535),
    apiKey: z.string().min(16, "must be at least 16 characters").max(4096).regex(/^\S+$/, "must not contain spaces").optional(),
    metricsPublic: z.boolean(),
    corsOrigins: z.array(z.string().regex(/^(\*|https?:\/\/[^/\s]+)$/, 'must be "*" or an origin such as https://app.example.com')),
    maxBodyBytes: z
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024),
    requestTimeoutMs: milliseconds(600_000).min(100),
    shutdownGraceMs: milliseconds(600_000),
    reloadIntervalMs: milliseconds(3_600_000),
    watch: z.array(z.string().min(1)),
    watchDebounceMs: milliseconds(600_000),
    logLevel: z.enum(LOG_LEVELS),
    decisionLog: z.enum(DECISION_LOG_MODES),
    explorer: z.boolean(),
    tieBreak: z.boolean(),
    embedWorkers: z.number().int().min(1).max(64),
    embedMaxBatch: z.number().int().min(1).max(256),
    embedBatchWindowMs: milliseconds(100),
  })
  .strict();

export type Settings = z.infer<typeof settingsSchema>;
export type SettingKey = keyof Settings;

export const DEFAULT_SETTINGS: Settings = {
  db: DEFAULT_DB_PATH,
  host: "127.0.0.1",
  port: 8787,
  apiKey: undefined,
  metricsPublic: false,
  corsOrigins: [],
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
};

/** How a setting is written outside a config file: "list" is comma-separated in the environment. */
export type SettingKind = "string" | "integer" | "boolean" | "list";

export interface SettingInfo {
  env: string;
  /** The `router serve` flag; secrets have none, so they never show in `ps` or shell history. A `--no-` flag can only turn its setting off. */
  flag?: string;
  kind: SettingKind;
  description: string;
  secret?: boolean;
}

export const SETTINGS: Record<SettingKey, SettingInfo> = {
  db: { env: "ROUTER_DB", flag: "--db <file>", kind: "string", description: "index file" },
  host: { env: "ROUTER_HOST", flag: "--host <host>", kind: "string", description: "address to bind (loopback unless you mean otherwise)" },
  port: { env: "ROUTER_PORT", flag: "--port <port>", kind: "integer", description: "port to listen on (0 picks a free one)" },
  apiKey: { env: "ROUTER_API_KEY", kind: "string", secret: true, description: "require Authorization: Bearer <key> on every endpoint but /healthz" },
  metricsPublic: { env: "ROUTER_METRICS_PUBLIC", flag: "--metrics-public", kind: "boolean", description: "serve /metrics without the API key" },
  corsOrigins: { env: "ROUTER_CORS_ORIGINS", flag: "--cors-origins <origins>", kind: "list", description: "browser origins allowed by CORS, comma-separated (CORS is off when empty)" },
  maxBodyBytes: { env: "ROUTER_MAX_BODY_BYTES", flag: "--max-body-bytes <n>", kind: "integer", description: "largest request body accepted" },
  requestTimeoutMs: { env: "ROUTER_REQUEST_TIMEOUT_MS", flag: "--request-timeout-ms <ms>", kind: "integer", description: "longest a request may take before it is answered 503 REQUEST_TIMEOUT" },
  shutdownGraceMs: { env: "ROUTER_SHUTDOWN_GRACE_MS", flag: "--shutdown-grace-ms <ms>", kind: "integer", description: "how long SIGTERM waits for in-flight requests" },
  reloadIntervalMs: { env: "ROUTER_RELOAD_INTERVAL_MS", flag: "--reload-interval-ms <ms>", kind: "integer", description: "how often to look for a new index version (0: never)" },
  watch: { env: "ROUTER_WATCH", flag: "--watch <dir...>", kind: "list", description: "skill folders to index at start and re-index when they change" },
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
    description: "worker threads embedding queries, each with its own copy of the model (default: one per core beyond the first)",
  },
  embedMaxBatch: { env: "ROUTER_EMBED_MAX_BATCH", flag: "--embed-max-batch <n>", kind: "integer", description: "most queries embedded in one worker call" },
  embedBatchWindowMs: {
    env: "ROUTER_EMBED_BATCH_WINDOW_MS",
    flag: "--embed-batch-window-ms <ms>",
    kind: "integer",
    description: "longest a query waits for others to join its batch while other batches are being embedded (0: never)",
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
  return host === "localhost" || host === "::1" || host.startsWith("127.");
}

/** The settings with secrets replaced, fit for logs and `router doctor`. */
export function maskSecrets(settings: Settings): Record<SettingKey, unknown> {
  return Object.fromEntries(SETTING_KEYS.map((key) => [key, SETTINGS[key].secret && settings[key] !== undefined ? "********" : settings[key]])) as Record<SettingKey, unknown>;
}
