import { pino, type DestinationStream, type Logger } from "pino";
import type { Settings } from "../config/settings.js";
import { VERSION } from "../version.js";

export type { Logger } from "pino";

/** JSON lines on stdout (or `destination`): one object per event, level as a word, time in ISO 8601. */
export function createLogger(level: Settings["logLevel"], destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: "skill-router", version: VERSION },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    // Nothing logs headers or settings unmasked; these paths are a second line of defence.
    redact: {
      paths: ["apiKey", "config.apiKey", "settings.apiKey", "authorization", "headers.authorization", "req.headers.authorization"],
      censor: (value: unknown) => (value === undefined ? value : "[redacted]"),
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** A logger that drops everything: the default for servers started from code (tests, embedding). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
