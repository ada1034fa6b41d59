import { isLoopbackAddress } from "../config/loopback.js";
import { dotRow } from "../models/vector-math.js";
import type { IndexDatabase } from "../store/database.js";
import { embeddedFeedback, setFeedbackVectors, type EmbeddedFeedback } from "../store/feedback-rows.js";
import { readMeta } from "../store/index-meta.js";
import { readSkillTexts, replaceSkillTexts, skillsWithUsageTexts, type EmbeddedText, type TextKind } from "../store/vectors.js";

// Requests from use kept per skill, the most recent first: bounds what a route compares with a skill, however much feedback there is.
const MAX_USAGE_TEXTS = 100;
// Two confirmed requests of a skill this similar agree: each then counts as much as the skill's own queries.
const AGREEMENT = 0.6;

export interface FeedbackApplied {
  /** Requests now examples of their skill, and how many of them no other confirmed request agrees with yet. */
  examples: number;
  lone: number;
  /** Requests now negatives of a skill that was wrongly injected for them. */
  negatives: number;
  /** Skills whose texts changed. */
  skills: number;
  /** Requests embedded now (imported without a vector, or embedded by another embedder). */
  embedded: number;
}

/** Embeds texts with the index's embedder (loaded only when a request has no vector of its own). */
export type EmbedTexts = (texts: string[]) => Promise<Float32Array[]>;

/**
 * Folds the feedback into the index's texts, inside the caller's transaction: each skill's confirmed requests follow
 * its manifest queries (`usage`, or `usage-lone` while no other confirmed request agrees with them) and the requests
 * it was wrongly injected for follow its negatives (`usage-negative`). The caller builds the routing data again.
 */
export async function applyFeedback(db: IndexDatabase, embed: EmbedTexts): Promise<FeedbackApplied> {
  const meta = readMeta(db);
  const dimension = meta.dimension ?? 0;
  const rows = embeddedFeedback(db);
  const embedded = await embedMissing(db, rows, meta.embedder ?? "", dimension, embed);
  const skillIds = new Map((db.prepare("SELECT name, id FROM skills").all() as { name: string; id: string }[]).map((row) => [row.name, row.id]));
  const examples = new Map<string, EmbeddedFeedback[]>();
  const negatives = new Map<string, EmbeddedFeedback[]>();
  // Newest first: the most recent requests are the ones kept.
  for (const row of [...rows].reverse()) {
    if (row.role === "example" && row.skill !== null && skillIds.has(row.skill)) push(examples, row.skill, row);
    if (row.wrong !== null && skillIds.has(row.wrong)) push(negatives, row.wrong, row);
  }
  for (const [name, confirmed] of examples) examples.set(name, independent(confirmed, dimension));
  for (const [name, wrong] of negatives) negatives.set(name, independent(wrong, dimension));
  const withUsage = skillsWithUsageTexts(db).map((skill) => skill.name);
  const applied: FeedbackApplied = { examples: 0, lone: 0, negatives: 0, skills: 0, embedded };
  for (const name of new Set([...examples.keys(), ...negatives.keys(), ...withUsage])) {
    const id = skillIds.get(name)!;
    const current = readSkillTexts(db, id, dimension);
    const own = current.filter((text) => !text.kind.startsWith("usage"));
    const confirmed = (examples.get(name) ?? []).slice(0, MAX_USAGE_TEXTS);
    const agreed = confirmed.filter((row) => confirmed.some((other) => other !== row && dotRow(row.vector!, other.vector!, 0, dimension) >= AGREEMENT));
    const lone = confirmed.filter((row) => !agreed.includes(row));
    const wrong = (negatives.get(name) ?? []).slice(0, MAX_USAGE_TEXTS);
    const ofKind = (kind: TextKind) => own.filter((text) => text.kind === kind);
    const texts = [...ofKind("description"), ...ofKind("query"), ...asTexts(agreed, "usage"), ...asTexts(lone, "usage-lone"), ...ofKind("negative"), ...asTexts(wrong, "usage-negative")];
    applied.examples += confirmed.length;
    applied.lone += lone.length;
    applied.negatives += wrong.length;
    if (sameTexts(current, texts)) continue;
    replaceSkillTexts(db, id, texts);
    applied.skills++;
  }
  return applied;
}

/**
 * A skill's requests from use (confirmed for it, or wrongly injected for) that may move its decision: every one of a
 * trusted sender's, and of each other sender (an address on the network, whose client names are its own word) only its
 * newest, and only once a request of another sender agrees with it. A flood from one sender, under however many client
 * names, then teaches a skill nothing.
 */
function independent(confirmed: EmbeddedFeedback[], dimension: number): EmbeddedFeedback[] {
  const kept = onePerUntrusted(confirmed);
  return kept.filter((row) => trusted(row) || kept.some((other) => other.sender !== row.sender && dotRow(row.vector!, other.vector!, 0, dimension) >= AGREEMENT));
}

/** Every row of a trusted sender, and the newest of each other sender (rows come newest first). */
function onePerUntrusted(rows: EmbeddedFeedback[]): EmbeddedFeedback[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    if (trusted(row)) return true;
    if (seen.has(row.sender!)) return false;
    seen.add(row.sender!);
    return true;
  });
}

/**
 * Senders the router trusts with a skill's decision on their word alone: the operator at the CLI (no sender), a holder
 * of an API key, and the machine itself (loopback, or a call in process; server/feedback-sender.ts names them). Other
 * addresses are anyone on the network.
 */
function trusted({ sender }: EmbeddedFeedback): boolean {
  if (sender === null || sender.startsWith("key:") || sender === "addr:in-process") return true;
  return sender.startsWith("addr:") && isLoopbackAddress(sender.slice("addr:".length));
}

/** Gives every row a vector of the index's embedder, storing those it embeds; how many it embedded. */
async function embedMissing(db: IndexDatabase, rows: EmbeddedFeedback[], embedder: string, dimension: number, embed: EmbedTexts): Promise<number> {
  const missing = rows.filter((row) => row.vector === null || row.embedder !== embedder || row.vector.length !== dimension);
  if (missing.length === 0) return 0;
  const vectors = await embed(missing.map((row) => row.query));
  missing.forEach((row, at) => (row.vector = vectors[at]!));
  setFeedbackVectors(db, embedder, new Map(missing.map((row) => [row.id, row.vector!])));
  return missing.length;
}

function asTexts(rows: EmbeddedFeedback[], kind: TextKind): EmbeddedText[] {
  return rows.map((row) => ({ kind, text: row.query, vector: row.vector! }));
}

function sameTexts(before: EmbeddedText[], after: EmbeddedText[]): boolean {
  return before.length === after.length && before.every((text, at) => text.kind === after[at]!.kind && text.text === after[at]!.text);
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
