import type { VectorSlots } from "../models/vector-slots.js";
import { RecencyList } from "./recency-list.js";

/** One embedded text of a skill as the query path holds it: its vector is in a slot of the model's vector slots. */
export interface TextSlot {
  slot: number;
  /** Its place among the skill's texts as written (0 is the description): the string is read only to show it. */
  position: number;
  /** A request from use: confirmed for the skill and agreeing with another (`agreed`), confirmed alone (`lone`), or one it was wrongly injected for (`negative`). */
  use?: "agreed" | "lone" | "negative";
}

/** How many texts of each kind each skill has after its description (store/dense-data.ts). */
export interface TextCounts {
  queryCounts: Uint32Array;
  usageCounts: Uint32Array;
  loneCounts: Uint32Array;
  negativeCounts: Uint32Array;
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
 * the capacity grows the memory instead. `counts` tell each text's kind by its position.
 */
export function vectorCache(slots: VectorSlots, capacity: number, source: VectorSource, counts: TextCounts, skillCount: number): (skills: number[]) => SkillTextSlots[] {
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
      const kindAt = textKinds(counts, skill);
      for (let position = 0; position < own.length / dimension; position++) {
        const kind = kindAt(position);
        const text: TextSlot = { slot: allocate(inUse), position, ...(kind.use ? { use: kind.use } : {}) };
        slots.write(text.slot, own.subarray(position * dimension, (position + 1) * dimension));
        if (kind.group === "description") entry.description = text;
        else entry[kind.group].push(text);
      }
      cached[skill] = entry;
      recency.touch(skill);
      return entry;
    });
  };
}

/** The kind of a skill's text at each position: its description, manifest queries, requests from use, negatives. */
export function textKinds(counts: TextCounts, skill: number): (position: number) => { group: "description" | "queries" | "negatives"; use?: TextSlot["use"] } {
  const queries = counts.queryCounts[skill]!;
  const usage = queries + counts.usageCounts[skill]!;
  const agreed = usage - counts.loneCounts[skill]!;
  const negatives = usage + counts.negativeCounts[skill]!;
  return (position) => {
    if (position === 0) return { group: "description" };
    if (position <= queries) return { group: "queries" };
    if (position <= agreed) return { group: "queries", use: "agreed" };
    if (position <= usage) return { group: "queries", use: "lone" };
    return position <= negatives ? { group: "negatives" } : { group: "negatives", use: "negative" };
  };
}

function slotsOf(entry: SkillTextSlots): number[] {
  return [...(entry.description ? [entry.description] : []), ...entry.queries, ...entry.negatives].map((text) => text.slot);
}
