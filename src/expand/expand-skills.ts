import pLimit from "p-limit";
import { createError } from "../errors.js";
import type { ManifestCache } from "../store/manifest-cache.js";
import { expansionMessages, PROMPT_VERSION } from "./expansion-prompt.js";
import type { ExpansionSubject } from "./expansion-subject.js";
import { HEURISTIC_VERSION, heuristicManifest } from "./heuristic-expander.js";
import { createLlmManifestWriter, type LlmManifestWriter } from "./llm-manifest-writer.js";
import type { ExpanderChoice, LlmSettings } from "./llm-settings.js";
import { completeManifest, describeIssues, partialManifestSchema, tidyManifest, type Manifest, type ManifestSource, type PartialManifest, type StoredManifest } from "./manifest.js";
import { createNeighbourFinder, type NeighbourCandidate } from "./neighbours.js";

/** A manifest brought in by `router expand --import`: from a batch API, another LLM or a person. */
export interface ImportedManifest {
  manifest: PartialManifest;
  /** The start of the content hash the request was made for, when the line says (batch custom_id). */
  contentHashPrefix?: string;
  /** Where it came from, for messages: "responses.jsonl line 3". */
  origin: string;
}

export interface ExpandOptions {
  /** `auto` (default): the LLM when `llm` is given, else the heuristic. */
  expander?: ExpanderChoice;
  llm?: LlmSettings;
  /** Paid-for manifests kept across runs; without it every LLM manifest is asked for again. */
  cache?: ManifestCache;
  /** Every skill of the index, to find each skill's neighbours for the prompt (default: the subjects). */
  neighbourPool?: NeighbourCandidate[];
  /** Imported manifests by skill name (or skill id). */
  imports?: Map<string, ImportedManifest>;
  onProgress?: (done: number, total: number) => void;
  /** Things a person should read, each said once: the expander in use, fallbacks, ignored files. */
  onNotice?: (message: string) => void;
}

export interface ExpansionReport {
  expander: "llm" | "heuristic";
  model: string | undefined;
  promptVersion: string;
  /** Manifests made this run, by where they came from. */
  sources: Record<ManifestSource, number>;
  /** LLM manifests taken from the cache instead of asked for. */
  cacheHits: number;
  llm: { requests: number; retries: number; promptTokens: number; completionTokens: number; responseFormat: string } | undefined;
  /** Skills that got the heuristic manifest because the LLM's answer was unusable or the LLM unreachable. */
  fallbacks: { skill: string; reason: string }[];
  notices: string[];
}

export interface Expansion {
  manifests: Map<string, StoredManifest>;
  report: ExpansionReport;
}

// Skills named in the notice about an LLM given up; the rest are counted.
const LISTED_NAMES = 5;

/**
 * A manifest for each skill, by skill id, in this order of precedence: a hand-written manifest file, the
 * eval set's example queries, an imported manifest, the LLM's (from the cache, else asked for; committed to
 * the cache as soon as it arrives), the heuristic's. Never throws for an LLM's fault: those skills fall back
 * to the heuristic manifest with a notice naming them.
 */
export async function expandManifests(subjects: ExpansionSubject[], options: ExpandOptions = {}): Promise<Expansion> {
  const llm = activeLlm(options);
  const notices: string[] = [];
  const notice = (message: string): void => {
    notices.push(message);
    options.onNotice?.(message);
  };
  const report: ExpansionReport = {
    expander: llm ? "llm" : "heuristic",
    model: llm?.model,
    promptVersion: PROMPT_VERSION,
    sources: { file: 0, examples: 0, import: 0, llm: 0, heuristic: 0 },
    cacheHits: 0,
    llm: undefined,
    fallbacks: [],
    notices,
  };
  const manifests = new Map<string, StoredManifest>();
  const waiting: ExpansionSubject[] = [];
  let done = 0;
  const settle = (subject: ExpansionSubject, stored: StoredManifest): void => {
    manifests.set(subject.id, stored);
    report.sources[stored.source]++;
    options.onProgress?.(++done, subjects.length);
  };

  for (const subject of subjects) {
    const stored = withoutLlm(subject, options, llm, notice, () => report.cacheHits++);
    if (stored) settle(subject, stored);
    else waiting.push(subject);
  }
  if (!llm && subjects.length > 0 && report.sources.heuristic > 0 && (options.expander ?? "auto") === "auto") {
    notice("No LLM configured: manifests come from the heuristic expander (set ROUTER_LLM_MODEL, and OPENAI_BASE_URL or OPENAI_API_KEY, to use an LLM)");
  }
  if (llm && waiting.length > 0) {
    const writer = createLlmManifestWriter(llm);
    await askLlm(waiting, writer, options, (subject, stored, reason) => {
      if (reason) report.fallbacks.push({ skill: subject.name, reason });
      settle(subject, stored);
    });
    report.llm = { ...writer.stats };
    reportFallbacks(report.fallbacks, writer, notice);
  }
  return { manifests, report };
}

/**
 * Unchanged skills whose stored manifest is not what this run would store: every one when the index was
 * expanded by another version of the heuristic expander (every source but the LLM's is completed from it),
 * imported ones, and with an LLM configured, heuristic manifests (fallbacks get another chance) and manifests
 * of another model or prompt. Otherwise hand-written and example-query manifests follow the skill's content.
 */
export function manifestsToRenew<T extends ExpansionSubject>(unchanged: T[], stored: Map<string, StoredManifest>, options: ExpandOptions, storedHeuristicVersion: string | undefined): T[] {
  if (storedHeuristicVersion !== HEURISTIC_VERSION) return unchanged;
  const llm = activeLlm(options);
  return unchanged.filter((subject) => {
    const current = stored.get(subject.id);
    if (!current) return true;
    if (current.source === "file" || current.source === "examples") return false;
    const imported = importFor(subject, options.imports);
    if (imported && (imported.contentHashPrefix === undefined || subject.contentHash.startsWith(imported.contentHashPrefix))) return true;
    if (!llm || current.source === "import") return false;
    const cached = options.cache?.get({ contentHash: subject.contentHash, promptVersion: PROMPT_VERSION, model: llm.model });
    return cached === undefined || JSON.stringify(cached) !== JSON.stringify(current.manifest);
  });
}

/** The LLM settings this run uses, or undefined for the heuristic; `--expander llm` without settings is an error. */
function activeLlm(options: ExpandOptions): LlmSettings | undefined {
  const choice = options.expander ?? "auto";
  if (choice === "llm" && !options.llm) {
    throw createError("LLM_NOT_CONFIGURED", "--expander llm needs a model: set ROUTER_LLM_MODEL or --llm-model (and OPENAI_BASE_URL or OPENAI_API_KEY)");
  }
  return choice === "heuristic" ? undefined : options.llm;
}

/** Every source that needs no LLM call, in order of precedence; undefined when the LLM must be asked. */
function withoutLlm(
  subject: ExpansionSubject,
  options: ExpandOptions,
  llm: LlmSettings | undefined,
  notice: (message: string) => void,
  cacheHit: () => void,
): StoredManifest | undefined {
  const fromFile = handWritten(subject, notice);
  if (fromFile) return { source: "file", manifest: fromFile };
  const examples = subject.metadata.exampleQueries;
  if (examples && examples.length > 0) return { source: "examples", manifest: { ...heuristicManifest(subject), queries: examples } };
  const imported = importFor(subject, options.imports);
  if (imported) {
    if (imported.contentHashPrefix === undefined || subject.contentHash.startsWith(imported.contentHashPrefix)) {
      return { source: "import", manifest: completeManifest(imported.manifest, heuristicManifest(subject)) };
    }
    notice(`skill "${subject.name}" changed since its request was exported (${imported.origin}); that manifest was not imported: export and run the request again`);
  }
  if (llm) {
    const cached = options.cache?.get({ contentHash: subject.contentHash, promptVersion: PROMPT_VERSION, model: llm.model });
    if (!cached) return undefined;
    cacheHit();
    return { source: "llm", manifest: cached };
  }
  // No LLM now, but an answer paid for earlier (another model, same content and prompt) beats the heuristic.
  const earlier = (options.expander ?? "auto") === "auto" ? options.cache?.getAnyModel(subject.contentHash, PROMPT_VERSION) : undefined;
  if (earlier) {
    cacheHit();
    return { source: "llm", manifest: earlier.manifest };
  }
  return { source: "heuristic", manifest: heuristicManifest(subject) };
}

/** The skill's hand-written manifest, completed from the heuristic; a broken file is reported and skipped. */
function handWritten(subject: ExpansionSubject, notice: (message: string) => void): Manifest | undefined {
  const file = subject.metadata.manifestFile;
  if (!file) return undefined;
  const parsed = partialManifestSchema.safeParse(file.content);
  if (!parsed.success) {
    notice(`skill "${subject.name}": ${file.file} does not fit the manifest schema (${describeIssues(parsed.error)}); using the generated manifest`);
    return undefined;
  }
  return completeManifest(tidyManifest(parsed.data), heuristicManifest(subject));
}

function importFor(subject: ExpansionSubject, imports: Map<string, ImportedManifest> | undefined): ImportedManifest | undefined {
  return imports?.get(subject.name) ?? imports?.get(subject.id);
}

/** Asks the LLM for each skill, a few at a time; each good answer is cached before anything else happens. */
async function askLlm(
  subjects: ExpansionSubject[],
  writer: LlmManifestWriter,
  options: ExpandOptions,
  settle: (subject: ExpansionSubject, stored: StoredManifest, fallbackReason?: string) => void,
): Promise<void> {
  const finder = createNeighbourFinder(options.neighbourPool ?? subjects);
  const limit = pLimit(options.llm!.concurrency);
  await Promise.all(
    subjects.map((subject) =>
      limit(async () => {
        const answer = await writer.write(expansionMessages(subject, finder));
        if (answer.ok) {
          options.cache?.put({ contentHash: subject.contentHash, promptVersion: PROMPT_VERSION, model: writer.model }, answer.manifest);
          settle(subject, { source: "llm", manifest: answer.manifest });
        } else {
          settle(subject, { source: "heuristic", manifest: heuristicManifest(subject) }, answer.problem);
        }
      }),
    ),
  );
}

/** One notice per skill whose LLM answer was unusable; skills never tried because the LLM was given up share one. */
function reportFallbacks(fallbacks: { skill: string; reason: string }[], writer: LlmManifestWriter, notice: (message: string) => void): void {
  const givenUp = fallbacks.filter((fallback) => fallback.reason.startsWith("LLM given up"));
  for (const fallback of fallbacks) {
    if (!givenUp.includes(fallback)) notice(`skill "${fallback.skill}": no usable LLM manifest (${fallback.reason}); using the heuristic manifest`);
  }
  if (givenUp.length > 0) {
    const names = givenUp.slice(0, LISTED_NAMES).map((fallback) => fallback.skill);
    const more = givenUp.length > LISTED_NAMES ? ` and ${givenUp.length - LISTED_NAMES} more` : "";
    notice(`LLM given up for the rest of this run (${writer.stats.disabled}); ${givenUp.length} skills use the heuristic manifest: ${names.join(", ")}${more}`);
  }
}
