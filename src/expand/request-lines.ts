import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { skillTextHash } from "../store/skill-text.js";
import { expansionMessages, manifestRequestBody } from "./expansion-prompt.js";
import type { ExpansionSubject } from "./expansion-subject.js";
import { createNeighbourFinder, type NeighbourCandidate } from "./neighbours.js";

/** One line of `router expand --export`: the OpenAI Batch API input shape, also a plain chat-completions body. */
export interface ManifestRequestLine {
  custom_id: string;
  method: "POST";
  url: "/v1/chat/completions";
  body: ChatCompletionCreateParamsNonStreaming;
}

// Batch APIs bound custom_id (64 characters at some providers); long names fall back to the skill id.
const MAX_CUSTOM_ID = 64;
const HASH_PREFIX = 12;

/** `<skill name>@<first 12 hex of its text hash>`: says which skill, and which text of it (store/skill-text.ts), a response is for. */
export function requestCustomId(subject: ExpansionSubject): string {
  const suffix = `@${skillTextHash(subject).slice(0, HASH_PREFIX)}`;
  return subject.name.length + suffix.length <= MAX_CUSTOM_ID ? `${subject.name}${suffix}` : `${subject.id}${suffix}`;
}

/** `name@0123456789ab` -> the skill key and the hash prefix; anything else is a key alone. */
export function parseCustomId(customId: string): { key: string; hashPrefix?: string } {
  const match = new RegExp(`^(.+)@([0-9a-f]{${HASH_PREFIX}})$`).exec(customId);
  return match ? { key: match[1]!, hashPrefix: match[2]! } : { key: customId };
}

/** One self-contained request per skill, with the same prompt, neighbours and schema the live expander uses. */
export function manifestRequestLines(subjects: ExpansionSubject[], pool: NeighbourCandidate[], model: string): ManifestRequestLine[] {
  const finder = createNeighbourFinder(pool);
  return subjects.map((subject) => ({
    custom_id: requestCustomId(subject),
    method: "POST",
    url: "/v1/chat/completions",
    body: manifestRequestBody(model, expansionMessages(subject, finder), "json_schema"),
  }));
}
