import { z } from "zod";
import { EXPANDER_CHOICES } from "../expand/llm-settings.js";
import { MODEL_DTYPES } from "../models/model-catalogue.js";
import { EMBEDDER_CHOICES } from "../models/model-settings.js";
import { RISKY_POLICIES } from "../skills/risk-scan.js";
import { DECISION_LOG_MODES, LOG_LEVELS } from "./setting-choices.js";

const milliseconds = (max: number) => z.number().int().min(0).max(max);
const optionalText = z.string().min(1).optional();
const httpUrl = z.string().regex(/^https?:\/\/\S+$/, "must be an http(s) URL");

/** Every setting of every command, validated the same way whichever source it came from. */
export const settingsSchema = z
  .object({
    db: z.string().min(1),
    host: z.string().min(1),
    port: z.number().int().min(0).max(65_535),
    apiKey: z.string().min(16, "must be at least 16 characters").max(4096).regex(/^\S+$/, "must not contain spaces").optional(),
    metricsPublic: z.boolean(),
    corsOrigins: z.array(z.string().regex(/^(\*|https?:\/\/[^/\s]+)$/, 'must be "*" or an origin such as https://app.example.com')),
    allowedHosts: z.array(
      z
        .string()
        .toLowerCase()
        .regex(/^(\*|\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*|\[[0-9a-f:.]+\])$/, 'must be a host name without scheme or port (router, .example.com, [fd00::1]) or "*"'),
    ),
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
    skillsRoot: z.array(z.string()),
    modelsDir: z.string().min(1),
    embedder: z.enum(EMBEDDER_CHOICES),
    modelDtype: z.enum(MODEL_DTYPES).optional(),
    modelThreads: z.number().int().min(1).max(64),
    allowRemoteModels: z.boolean(),
    hubEndpoint: httpUrl,
    hubToken: optionalText,
    expander: z.enum(EXPANDER_CHOICES),
    llmModel: optionalText,
    llmBaseUrl: httpUrl.optional(),
    llmApiKey: optionalText,
    llmConcurrency: z.number().int().min(1).max(256),
    llmTimeoutMs: milliseconds(3_600_000).min(1),
    llmRetries: z.number().int().min(0).max(20),
    evalCacheDir: z.string().min(1),
    risky: z.enum(RISKY_POLICIES),
    feedbackUrl: z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// or postgresql:// URL")
      .optional(),
    feedbackSkillHourly: z.number().int().min(1).max(1_000_000),
    feedbackSenderHourly: z.number().int().min(1).max(10_000_000),
  })
  .strict();

export type Settings = z.infer<typeof settingsSchema>;
