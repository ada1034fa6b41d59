import type { VectorSlots } from "../models/vector-slots.js";
import { RecencyList } from "./recency-list.js";

/** One embedded text of a skill as the query path holds it: its vector is in a slot of the model's vector slots. */
export interface TextSlot {
  slot: number;
  /** Its place among the skill's texts as written (0 is the description): the string is read only to show it. */
  position: number;
}

/** A skill's texts grouped by kind, each group in the order it was written. */
export interface SkillTextSlots {
  description: TextSlot | undefined;
  queries: TextSlot[];
  negatives: TextSlot[];
}

/** Reads skills' vectors from the index: each skill's texts' vectors end to end (description, queries, negatives). */
export type VectorSource = (skills: number[]) => Float32Array[];

/**
 * Candidates' texts with their vectors copied into vector slots, least recently used skills evicted first once
 * `capacity` slots are used. The skills of one call are never evicted during it: a call that needs more slots than
 * the capacity grows the memory instead. `queryCounts` tells each skill's queries from its negatives.
 */
export function vectorCache(slots: VectorSlots, capacity: number, source: VectorSource, queryCounts: Uint32Array, skillCount: number): (skills: number[]) => SkillTextSlots[] {
  const cached: (SkillTextSlots | undefined)[] = new Array(skillCount);
  const recency = new RecencyList(skillCount);
  const free: number[] = [];
  let used = 0;
  // Slot 0 is the query's.
  let nextSlot = 1;

  const evictOldest = (inUse: Set<number>): void => {
    const skill = recency.oldest((item) => inUse.has(item));
    if (skill === undefined) return;
    const released = slotsOf(cached[skill]!);
    cached[skill] = undefined;
    recency.remove(skill);
    free.push(...released);
    used -= released.length;
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
      const entry = cached[skill];
      if (entry) recency.touch(skill);
      return entry;
    });
    const missing = skills.filter((_, at) => found[at] === undefined);
    if (missing.length === 0) return found as SkillTextSlots[];
    const vectors = source(missing);
    const read = new Map(missing.map((skill, at) => [skill, vectors[at]!] as const));
    const { dimension } = slots;
    return skills.map((skill, at) => {
      const hit = found[at];
      if (hit) return hit;
      const own = read.get(skill)!;
      const entry: SkillTextSlots = { description: undefined, queries: [], negatives: [] };
      for (let position = 0; position < own.length / dimension; position++) {
        const text = { slot: allocate(inUse), position };
        slots.write(text.slot, own.subarray(position * dimension, (position + 1) * dimension));
        if (position === 0) entry.description = text;
        else if (position <= queryCounts[skill]!) entry.queries.push(text);
        else entry.negatives.push(text);
      }
      cached[skill] = entry;
      recency.touch(skill);
      return entry;
    });
  };
}

function slotsOf(entry: SkillTextSlots): number[] {
  return [...(entry.description ? [entry.description] : []), ...entry.queries, ...entry.negatives].map((text) => text.slot);
}
