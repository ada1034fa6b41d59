import { createError } from "../errors.js";
import type { ManifestCache } from "../store/manifest-cache.js";
import type { ManifestSource, StoredManifest } from "../store/records.js";
import { examplesSource } from "./examples-source.js";
import { PROMPT_VERSION } from "./expansion-prompt.js";
import type { ExpansionSubject } from "./expansion-subject.js";
import { fileSource } from "./file-source.js";
import { heuristicSource } from "./heuristic-source.js";
import { importSource, type ImportedManifest } from "./import-source.js";
import type { ExpanderChoice, LlmSettings } from "./llm-settings.js";
import { cachedLlmSource, llmSource, type LlmSource } from "./llm-source.js";
import type { ManifestWriter } from "./manifest-source.js";
import type { NeighbourCandidate } from "./neighbours.js";

export type { ImportedManifest } from "./import-source.js";

export interface ExpandOptions {
  /** `auto` (default): the LLM when `llm` is given, else the heuristic. */
  expander?: ExpanderChoice;
  llm?: LlmSettings;
  /** Paid-for manifests kept across runs; without it every LLM manifest is asked for again. */
  cache?: ManifestCache;
  /** Every skill of the index, to find each skill's neighbours for the prompt (default: none). */
  neighbourPool?: NeighbourCandidate[];
  /** Imported manifests by skill name (or skill id). */
  imports?: Map<string, ImportedManifest>;
  /** By skill id, content hashes its unchanged text had: an import line exported by an older release names one (import-source.ts). */
  formerHashes?: ReadonlyMap<string, readonly string[]>;
  /** Things a person should read, each said once: the expander in use, fallbacks, ignored files. */
  onNotice?: (message: string) => void;
}

/** The ordered sources of one run, and what it has said so far. */
export interface ExpansionChain {
  sources: ManifestWriter[];
  /** The LLM source, when one is configured. */
  llm: LlmSource | undefined;
  choice: ExpanderChoice;
  notices: string[];
  notice(message: string): void;
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
 * Where manifests come from, first match wins: a hand-written manifest file, an eval set's example queries, an
 * imported manifest, the LLM (or, with none configured, an answer it gave before), the heuristic. `--expander llm`
 * without settings is an error.
 */
export function expansionChain(options: ExpandOptions): ExpansionChain {
  const choice = options.expander ?? "auto";
  if (choice === "llm" && !options.llm) {
    throw createError("LLM_NOT_CONFIGURED", "--expander llm needs a model: set ROUTER_LLM_MODEL or --llm-model (and OPENAI_BASE_URL or OPENAI_API_KEY)");
  }
  const said = new Set<string>();
  const notices: string[] = [];
  const notice = (message: string): void => {
    if (said.has(message)) return;
    said.add(message);
    notices.push(message);
    options.onNotice?.(message);
  };
  const llm = choice !== "heuristic" && options.llm ? llmSource(options.llm, options.cache, options.neighbourPool ?? []) : undefined;
  const earlierAnswers = !llm && choice === "auto" && options.cache ? cachedLlmSource(options.cache) : undefined;
  const sources = [
    fileSource(notice),
    examplesSource(),
    ...(options.imports ? [importSource(options.imports, notice, options.formerHashes)] : []),
    ...(llm ? [llm] : []),
    ...(earlierAnswers ? [earlierAnswers] : []),
    heuristicSource(),
  ];
  return { sources, llm, choice, notices, notice };
}

/** The first source that claims the subject, and its claim (the heuristic claims every skill). */
function firstClaim(chain: ExpansionChain, subject: ExpansionSubject, after = -1): { at: number; version: string } {
  for (let at = after + 1; at < chain.sources.length; at++) {
    const claim = chain.sources[at]!.claim(subject);
    if (claim) return { at, version: claim.version };
  }
  throw new Error("the heuristic source claims every skill");
}

// Sources by precedence: a manifest is made again for a better source, never replaced by a lesser one.
const PRECEDENCE: ManifestSource[] = ["file", "examples", "import", "llm", "heuristic"];

/**
 * Unchanged skills whose stored manifest is not what this run would store: a better source now claims them (an LLM
 * configured, an import) or the same source at another version (the heuristic upgraded, another model or prompt). A
 * lesser source never replaces a manifest: an imported or LLM-written one stays through runs without them.
 */
export function manifestsToRenew<T extends ExpansionSubject>(unchanged: T[], stored: Map<string, StoredManifest>, chain: ExpansionChain): T[] {
  return unchanged.filter((subject) => {
    const current = stored.get(subject.id);
    if (!current) return true;
    const claim = firstClaim(chain, subject);
    const rank = PRECEDENCE.indexOf(chain.sources[claim.at]!.name) - PRECEDENCE.indexOf(current.source);
    return rank < 0 || (rank === 0 && claim.version !== current.version);
  });
}

/** A manifest for each subject, by skill id. Never throws for an LLM's fault: those skills get the next source's manifest, with a notice naming them. */
export async function expandManifests(subjects: ExpansionSubject[], chain: ExpansionChain, onProgress?: (done: number, total: number) => void): Promise<Expansion> {
  const manifests = new Map<string, StoredManifest>();
  const report: ExpansionReport = {
    expander: chain.llm ? "llm" : "heuristic",
    model: chain.llm?.writer.model,
    promptVersion: PROMPT_VERSION,
    sources: { file: 0, examples: 0, import: 0, llm: 0, heuristic: 0 },
    cacheHits: 0,
    llm: undefined,
    fallbacks: [],
    notices: chain.notices,
  };
  let done = 0;
  await Promise.all(
    subjects.map(async (subject) => {
      let claim = firstClaim(chain, subject);
      for (;;) {
        const source = chain.sources[claim.at]!;
        const outcome = await source.write(subject, { version: claim.version });
        if ("manifest" in outcome) {
          manifests.set(subject.id, { source: source.name, version: claim.version, manifest: outcome.manifest });
          report.sources[source.name]++;
          if (outcome.cached) report.cacheHits++;
          break;
        }
        report.fallbacks.push({ skill: subject.name, reason: outcome.failed });
        claim = firstClaim(chain, subject, claim.at);
      }
      onProgress?.(++done, subjects.length);
    }),
  );
  if (!chain.llm && chain.choice === "auto" && report.sources.heuristic > 0) {
    chain.notice("No LLM configured: manifests come from the heuristic expander (set ROUTER_LLM_MODEL, and OPENAI_BASE_URL or OPENAI_API_KEY, to use an LLM)");
  }
  // Reported when the LLM was asked at all (every manifest from the cache asks nothing).
  if (chain.llm && chain.llm.writer.stats.requests > 0) {
    report.llm = { ...chain.llm.writer.stats };
    reportFallbacks(report.fallbacks, chain.llm.writer.stats.disabled, chain.notice);
  }
  return { manifests, report };
}

/** One notice per skill whose LLM answer was unusable; skills never tried because the LLM was given up share one. */
function reportFallbacks(fallbacks: { skill: string; reason: string }[], disabled: string | undefined, notice: (message: string) => void): void {
  const givenUp = fallbacks.filter((fallback) => fallback.reason.startsWith("LLM given up"));
  for (const fallback of fallbacks) {
    if (!givenUp.includes(fallback)) notice(`skill "${fallback.skill}": no usable LLM manifest (${fallback.reason}); using the heuristic manifest`);
  }
  if (givenUp.length > 0) {
    const names = givenUp.slice(0, LISTED_NAMES).map((fallback) => fallback.skill);
    const more = givenUp.length > LISTED_NAMES ? ` and ${givenUp.length - LISTED_NAMES} more` : "";
    notice(`LLM given up for the rest of this run (${disabled}); ${givenUp.length} skills use the heuristic manifest: ${names.join(", ")}${more}`);
  }
}
