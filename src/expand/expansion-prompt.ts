import { createHash } from "node:crypto";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { readableName } from "../text/readable-name.js";
import type { ExpansionSubject } from "./expansion-subject.js";
import { MANIFEST_JSON_SCHEMA } from "./manifest.js";
import type { NeighbourFinder } from "./neighbours.js";

// About 1,500 tokens of body: enough for the purpose and the sections of a skill, cheap for thousands of skills.
const MAX_BODY_CHARS = 6_000;
const MAX_PARAMETERS_CHARS = 3_000;
const MAX_NEIGHBOUR_DESCRIPTION_CHARS = 200;
// Neighbours named in the prompt: enough for the negatives to point at, few enough to keep the prompt short.
const NEIGHBOURS = 5;
// Raise when the user message's layout changes; the system prompt and schema are hashed into the version anyway.
const TEMPLATE_REVISION = 1;

const SYSTEM_PROMPT = `You write routing manifests for a skill router. An AI agent has many installed skills (instruction folders or callable tools). Before the agent's model runs, the router compares the user's message with every skill's manifest and decides which skill to load, or none. The manifest is what the router knows about a skill besides its description, so write the words real users type.

Reply with one JSON object and nothing else, with exactly these fields:
- "queries": 20 distinct requests this skill should handle, written as real users type them. Vary length (3 to 30 words), tone and form: questions, commands, problem reports, pasted error messages. At least 8 must not name the skill, its tool or its product.
- "keywords": 10 to 20 technical terms, synonyms, abbreviations and product names a user may type.
- "phrases": about 10 short action or problem phrases of 2 to 5 words, such as "pod keeps restarting".
- "negatives": 5 to 10 near-miss requests that look related but must NOT load this skill. Prefer requests that belong to the neighbouring skills listed, or to no skill at all.
- "negative_constraint": one sentence saying what this skill is not for.
- "category": a short lower-case domain label, such as "devops", "data" or "writing".
Write in the language of the skill's description. Never invent capabilities the skill does not have.`;

/** Names the prompt and the answer schema: a cached manifest is reused only for the same version. */
export const PROMPT_VERSION = `v${TEMPLATE_REVISION}-${createHash("sha256")
  .update(SYSTEM_PROMPT)
  .update(JSON.stringify(MANIFEST_JSON_SCHEMA))
  .update(`${MAX_BODY_CHARS}/${MAX_PARAMETERS_CHARS}/${MAX_NEIGHBOUR_DESCRIPTION_CHARS}`)
  .digest("hex")
  .slice(0, 10)}`;

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

/** The system and user messages that ask for one skill's manifest, naming its nearest neighbours. */
export function expansionMessages(subject: ExpansionSubject, finder: NeighbourFinder): ChatMessage[] {
  const neighbours = finder.nearest(subject, NEIGHBOURS);
  const lines = [`Skill name: ${subject.name}`];
  if (subject.metadata.toolName && subject.metadata.toolName !== subject.name) lines.push(`Tool name: ${subject.metadata.toolName}`);
  lines.push(`Kind: ${subject.kind === "tool" ? "tool (a function the agent can call)" : "skill (instructions loaded into the agent's context)"}`);
  lines.push(`Description: ${subject.description || readableName(subject.name)}`);
  if (subject.kind === "tool") {
    if (subject.metadata.parameters !== undefined) lines.push("", "Parameters (JSON schema):", cut(JSON.stringify(subject.metadata.parameters), MAX_PARAMETERS_CHARS));
  } else if (subject.body.trim() !== "") {
    lines.push("", "Instructions (markdown, possibly shortened):", "<<<", trimBody(subject.body, MAX_BODY_CHARS), ">>>");
  }
  if (neighbours.length > 0) {
    lines.push("", "Neighbouring skills (most alike first; the negatives should point at these):");
    for (const neighbour of neighbours) lines.push(`- ${neighbour.name}: ${cut(neighbour.description.replace(/\s+/g, " "), MAX_NEIGHBOUR_DESCRIPTION_CHARS)}`);
  }
  return [
    { role: "system", content: SYSTEM_PROMPT },
    { role: "user", content: lines.join("\n") },
  ];
}

/**
 * A long body shortened where it matters least for routing: code blocks go first, then each section keeps its
 * heading and opening lines, so the outline of the whole skill survives.
 */
function trimBody(body: string, limit: number): string {
  const prose = body
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "[code example omitted]")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  if (prose.length <= limit) return prose;
  const sections = prose.split(/\n(?=#{1,6}\s)/);
  const share = Math.max(200, Math.floor(limit / sections.length));
  const kept: string[] = [];
  let used = 0;
  for (const section of sections) {
    const piece = cut(section.trim(), share);
    if (used + piece.length > limit) break;
    kept.push(piece);
    used += piece.length + 2;
  }
  return `${kept.join("\n\n")}\n\n[... shortened]`;
}

/** At most `limit` characters, cut at a line or word boundary, marked with an ellipsis. */
function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const slice = text.slice(0, limit);
  const boundary = Math.max(slice.lastIndexOf("\n"), slice.lastIndexOf(" "));
  return `${slice.slice(0, boundary > limit / 2 ? boundary : limit).trimEnd()} ...`;
}

export type ResponseFormatKind = "json_schema" | "json_object";

/** A chat-completions request body asking for a manifest: structured output, or plain JSON mode for servers without it. */
export function manifestRequestBody(model: string, messages: ChatMessage[], format: ResponseFormatKind): ChatCompletionCreateParamsNonStreaming {
  return {
    model,
    messages,
    response_format: format === "json_schema" ? { type: "json_schema", json_schema: { name: "routing_manifest", strict: true, schema: MANIFEST_JSON_SCHEMA } } : { type: "json_object" },
  };
}
