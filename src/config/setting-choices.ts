/** The log levels pino knows. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
/** How the decision log records a query: its sha256 (default), its text, or no decision log at all. */
export const DECISION_LOG_MODES = ["hash", "query", "off"] as const;
