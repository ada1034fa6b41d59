import type { VectorSlots } from "../models/vector-slots.js";
import type { TextKind } from "../store/vectors.js";

/** One embedded text of a skill as the query path holds it: its vector is in a slot of the model's vector slots. */
export interface SkillText {
  text: string;
  slot: number;
}

/** A skill's texts grouped by kind, each group in the order it was written. */
export interface ByKind<T> {
  description: T | undefined;
  queries: T[];
  negatives: T[];
}

export type SkillTexts = ByKind<SkillText>;

/** Reads skills' texts and their vectors from the index. */
export type TextSource = (skills: number[]) => { kind: TextKind; text: string; vector: Float32Array }[][];

/**
 * Candidates' texts with their vectors copied into vector slots, least recently used skills evicted first once
 * `capacity` slots are used. The skills of one call are never evicted during it: a call that needs more slots than
 * the capacity grows the memory instead.
 */
export function vectorCache(slots: VectorSlots, capacity: number, source: TextSource): (skills: number[]) => SkillTexts[] {
  // A Map iterates in insertion order: re-inserting on every use keeps the least recently used first.
  const cached = new Map<number, SkillTexts>();
  const free: number[] = [];
  let used = 0;
  // Slot 0 is the query's.
  let nextSlot = 1;

  const evictOldest = (inUse: Set<number>): void => {
    for (const [skill, entry] of cached) {
      if (inUse.has(skill)) continue;
      cached.delete(skill);
      const released = slotsOf(entry);
      free.push(...released);
      used -= released.length;
      return;
    }
  };
  const allocate = (inUse: Set<number>): number => {
    if (used >= capacity) evictOldest(inUse);
    used++;
    const slot = free.pop();
    if (slot !== undefined) return slot;
    slots.reserve(nextSlot + 1);
    return nextSlot++;
  };

  return (skills) => {
    const inUse = new Set(skills);
    const found = skills.map((skill) => {
      const entry = cached.get(skill);
      if (entry) {
        cached.delete(skill);
        cached.set(skill, entry);
      }
      return entry;
    });
    const missing = skills.filter((_, at) => found[at] === undefined);
    if (missing.length === 0) return found as SkillTexts[];
    const texts = source(missing);
    const read = new Map(missing.map((skill, at) => [skill, texts[at]!] as const));
    return skills.map((skill, at) => {
      const hit = found[at];
      if (hit) return hit;
      const entry = groupByKind(
        read.get(skill)!.map(({ kind, text, vector }) => {
          const slot = allocate(inUse);
          slots.write(slot, vector);
          return { kind, text, slot };
        }),
      );
      cached.set(skill, entry);
      return entry;
    });
  };
}

/** Texts grouped by kind, each group in the order given. */
function groupByKind<T extends { kind: TextKind }>(texts: T[]): ByKind<T> {
  const entry: ByKind<T> = { description: undefined, queries: [], negatives: [] };
  for (const text of texts) {
    if (text.kind === "description") entry.description = text;
    else if (text.kind === "query") entry.queries.push(text);
    else entry.negatives.push(text);
  }
  return entry;
}

function slotsOf(entry: SkillTexts): number[] {
  return [...(entry.description ? [entry.description] : []), ...entry.queries, ...entry.negatives].map((text) => text.slot);
}
