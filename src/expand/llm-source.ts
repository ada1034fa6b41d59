import pLimit from "p-limit";
import type { ManifestCache } from "../store/manifest-cache.js";
import { skillTextHash } from "../store/skill-text.js";
import { expansionMessages, PROMPT_VERSION } from "./expansion-prompt.js";
import { createLlmManifestWriter, type LlmManifestWriter } from "./llm-manifest-writer.js";
import type { LlmSettings } from "./llm-settings.js";
import type { ManifestWriter } from "./manifest-source.js";
import { createNeighbourFinder, type NeighbourCandidate, type NeighbourFinder } from "./neighbours.js";

export interface LlmSource extends ManifestWriter {
  /** The writer's request and token counts, and why the LLM was given up if it was. */
  readonly writer: LlmManifestWriter;
}

/**
 * The configured LLM, a few requests at a time: from the cache when this skill text, prompt and model were asked
 * before, else asked now, each good answer cached at once (before the run's transaction, so it is never lost).
 */
export function llmSource(settings: LlmSettings, cache: ManifestCache | undefined, neighbourPool: NeighbourCandidate[]): LlmSource {
  const writer = createLlmManifestWriter(settings);
  const limit = pLimit(settings.concurrency);
  const version = `llm:${PROMPT_VERSION}:${settings.model}`;
  // The neighbours the prompt names are found only once a skill is really asked about.
  let finder: NeighbourFinder | undefined;
  return {
    name: "llm",
    writer,
    claim: () => ({ version }),
    async write(subject) {
      const key = { textHash: skillTextHash(subject), promptVersion: PROMPT_VERSION, model: settings.model };
      const cached = cache?.get(key);
      if (cached) return { manifest: cached, cached: true };
      finder ??= createNeighbourFinder(neighbourPool);
      const answer = await limit(() => writer.write(expansionMessages(subject, finder!)));
      if (!answer.ok) return { failed: answer.problem };
      cache?.put(key, answer.manifest);
      return { manifest: answer.manifest };
    },
  };
}

/** With no LLM configured: an answer paid for earlier (any model, the same skill text and prompt) beats the heuristic. */
export function cachedLlmSource(cache: ManifestCache): ManifestWriter {
  // Asked of every unchanged skill on every run: with nothing cached, its text is not even hashed.
  let holdsAny: boolean | undefined;
  return {
    name: "llm",
    claim(subject) {
      holdsAny ??= cache.holdsAny(PROMPT_VERSION);
      if (!holdsAny) return undefined;
      const earlier = cache.getAnyModel(skillTextHash(subject), PROMPT_VERSION);
      return earlier ? { version: `llm:${PROMPT_VERSION}:${earlier.model}` } : undefined;
    },
    async write(subject) {
      const earlier = cache.getAnyModel(skillTextHash(subject), PROMPT_VERSION);
      return earlier ? { manifest: earlier.manifest, cached: true } : { failed: "the cached answer is gone" };
    },
  };
}
