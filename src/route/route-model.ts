import { LRUCache } from "lru-cache";
import { VectorSlots } from "../models/vector-slots.js";
import { analyseText } from "../text/analyse-text.js";
import { readAbstainExamples, type AbstainExamples } from "../store/abstain-examples.js";
import type { IndexDatabase } from "../store/database.js";
import { createError } from "../errors.js";
import { denseData } from "../store/dense-data.js";
import { readMeta } from "../store/index-meta.js";
import { emptyLexicalTables, lexicalData, type LexicalTables } from "../store/lexical-data.js";
import type { RiskFlag, SkillKind } from "../store/records.js";
import { flaggedSkills } from "../store/skill-rows.js";
import { skillTextStrings, skillVectorReader } from "../store/vectors.js";
import { yieldToRequests } from "./yield-to-requests.js";
import { textKinds, vectorCache, type SkillTextSlots, type TextCounts, type TextSlot, type VectorSource } from "./vector-cache.js";

/** One routable skill as held in memory: what every candidate needs, nothing that grows with its texts. */
export interface SkillEntry {
  id: string;
  name: string;
  kind: SkillKind;
  description: string;
  tokens: number;
  /** Heuristic manifests are drawn from the description, not written as user requests: similarities run lower. */
  heuristicManifest: boolean;
  /** Injected only when a request calls it by name (its author says so: SkillMetadata.explicitOnly). */
  explicitOnly: boolean;
}

/**
 * Everything the query path reads of one index version. Its skills and routing data are fixed once loaded; its vector
 * and text-string caches fill and evict as queries read them, and `compareWith` sets the query in a shared slot.
 */
export interface RouteModel {
  indexVersion: number;
  embedder: string | null;
  dimension: number;
  skills: SkillEntry[];
  byName: Map<string, number>;
  /** The skills injected only when a request calls them by name. */
  explicitOnlySkills: number[];
  /** One unit vector per skill (mean of its queries and description), skill i's in slot i + 1: dense search and the q2c signal compare the query with these. */
  centroids: VectorSlots;
  /** The centroids' sign-bit codes (models/sign-codes.ts): dense search over a large index compares these first. */
  centroidCodes: Uint32Array;
  /** BM25F postings and the keyword index, as `router index` wrote them. */
  lexical: LexicalTables;
  /** Embedded texts in the index. */
  textCount: number;
  /** The embedded texts of these skills, read from the index (recently read ones from a bounded cache). */
  texts(skills: number[]): SkillTextSlots[];
  /** The string of a skill's text at `position` (TextSlot.position), read from the index when first asked for. */
  textString(skill: number, position: number): string;
  /** A skill's manifest queries and negatives as analysed term sets, each with its position (read and analysed when first asked for). */
  textTerms(skill: number): SkillTextTerms;
  /** Similarity of `query` (a unit vector) to texts of this model; valid until it is called again. */
  compareWith(query: Float32Array): (text: TextSlot) => number;
  /** Requests no skill should answer (learned by `router fit`). */
  abstain: AbstainExamples;
  /** What the risky-skill rules flagged, by skill index: only flagged skills are present. */
  risks: Map<number, RiskFlag[]>;
}

// Vectors of recently scored skills kept in memory: a few thousand skills' worth, whatever the size of the index.
const VECTOR_CACHE_BYTES = 64 * 1024 * 1024;
const SKILL_ROWS_PER_READ = 500;
// Centroids copied between checks for a pause: 1,000 are 2 MB at 512 dimensions.
const CENTROIDS_PER_SLICE = 1_000;
// Skills whose text strings are kept once read: those of recently shown candidates.
const TEXT_STRING_SKILLS = 1_000;

/** Loads one index version (call inside its read transaction): skill metadata and the routing data written with it. */
export async function loadRouteModel(db: IndexDatabase, pause: () => Promise<void> | undefined = yieldToRequests(), vectorCacheBytes = VECTOR_CACHE_BYTES): Promise<RouteModel> {
  const meta = readMeta(db);
  const skills: SkillEntry[] = [];
  const byName = new Map<string, number>();
  // Read a row at a time with pauses: 10,000 skills take some 35 ms, too long to hold the event loop.
  const select = db.prepare(
    "SELECT s.id, s.name, s.kind, s.description, s.tokens, coalesce(m.source = 'heuristic', 0) AS heuristic, json_extract(s.metadata, '$.explicitOnly') IS NOT NULL AS explicitOnly FROM skills s LEFT JOIN manifests m ON m.skill_id = s.id WHERE s.name > ? ORDER BY s.name LIMIT ?",
  );
  for (let last = ""; ; ) {
    const rows = select.all(last, SKILL_ROWS_PER_READ) as (Omit<SkillEntry, "heuristicManifest" | "explicitOnly"> & { heuristic: number; explicitOnly: number })[];
    for (const { heuristic, explicitOnly, ...entry } of rows) byName.set(entry.name, skills.push({ ...entry, heuristicManifest: heuristic === 1, explicitOnly: explicitOnly === 1 }) - 1);
    if (rows.length < SKILL_ROWS_PER_READ) break;
    last = rows.at(-1)!.name;
    await pause();
  }
  const dimension = meta.dimension ?? 0;
  // The centroids are read straight into the slots where the query is compared with them (skill i's in slot i + 1).
  const centroids = new VectorSlots(dimension);
  const centroidRows = centroids.rows(1, skills.length);
  // An index that never held a skill has no routing data to read.
  const { lexical, dense } =
    skills.length === 0
      ? EMPTY_ROUTING_DATA
      : { lexical: (await lexicalData.read(db, pause)).arrays, dense: await denseData.read(db, pause, (name) => (name === "centroids" ? centroidRows : undefined)) };
  // Routing data is made for one index version: data for other skills means the index was changed by hand or damaged.
  if (!sameNames(dense.values.names, skills)) throw createError("INDEX_CORRUPT", "The index's routing data was written for other skills than it holds: run `router index` again");
  // Slots padded to whole SIMD lanes are not one array: those get a copy.
  if (dense.arrays.centroids !== centroidRows) await writeCentroids(centroids, dense.arrays.centroids, skills.length, pause);
  const slots = new VectorSlots(dimension);
  return {
    indexVersion: meta.indexVersion,
    embedder: meta.embedder ?? null,
    dimension,
    skills,
    byName,
    explicitOnlySkills: skills.flatMap((skill, index) => (skill.explicitOnly ? [index] : [])),
    centroids,
    centroidCodes: dense.arrays.codes,
    lexical,
    textCount: dense.values.textCount,
    texts: vectorCache(slots, Math.floor(vectorCacheBytes / (dimension * 4)), vectorSource(db, skills), dense.arrays, skills.length),
    ...textReaders(db, skills, dense.arrays),
    compareWith(query) {
      slots.setQuery(query);
      return (text) => slots.similarity(text.slot);
    },
    abstain: readAbstainExamples(db, meta.embedder ?? null, dimension),
    risks: new Map([...flaggedSkills(db)].flatMap(([name, flags]) => (byName.has(name) ? [[byName.get(name)!, flags] as const] : []))),
  };
}

const EMPTY_ROUTING_DATA = {
  lexical: emptyLexicalTables(),
  dense: {
    arrays: {
      centroids: new Float32Array(0),
      codes: new Uint32Array(0),
      queryCounts: new Uint32Array(0),
      usageCounts: new Uint32Array(0),
      loneCounts: new Uint32Array(0),
      negativeCounts: new Uint32Array(0),
    },
    values: { names: [], textCount: 0 },
  },
};

/** Copies the centroids into `slots` (skill i's in slot i + 1), where the SIMD dot product reads them; a slice at a time, as a reload must yield to requests. */
export async function writeCentroids(slots: VectorSlots, centroids: Float32Array, count: number, pause: () => Promise<void> | undefined): Promise<void> {
  const { dimension } = slots;
  slots.reserve(count + 1);
  for (let skill = 0; skill < count; skill++) {
    slots.write(skill + 1, centroids.subarray(skill * dimension, (skill + 1) * dimension));
    if (skill % CENTROIDS_PER_SLICE === 0) await pause();
  }
}

/** Whether the routing data was written for exactly these skills, in this order (compared name by name: at 100,000 skills, joining them held the event loop for tens of ms). */
function sameNames(names: string[], skills: SkillEntry[]): boolean {
  return names.length === skills.length && skills.every((skill, at) => skill.name === names[at]);
}

/** Reads skills' vectors from the index, in the order they were written. */
function vectorSource(db: IndexDatabase, skills: SkillEntry[]): VectorSource {
  const read = skillVectorReader(db);
  return (indexes) => {
    const found = read(indexes.map((index) => skills[index]!.id));
    return indexes.map((index) => found.get(skills[index]!.id) ?? new Float32Array(0));
  };
}

/** A skill's texts of one kind, analysed: what a request's words are compared with. */
export interface TermSet {
  position: number;
  terms: Set<string>;
  /** A request from use (TextSlot.use). */
  use?: TextSlot["use"];
}

export interface SkillTextTerms {
  queries: TermSet[];
  negatives: TermSet[];
  /** Each query's terms by its text position, and every word of the manifest's own queries: what evidence from use reads (signals.ts). */
  queryTermsAt: Map<number, Set<string>>;
  manifestWords: Set<string>;
}

/**
 * Reads a skill's text strings when one is first shown (or its words first compared), and keeps those of the most
 * recently used skills, with their analysed terms once asked for. `counts` tell each text's kind by its position.
 */
function textReaders(db: IndexDatabase, skills: SkillEntry[], counts: TextCounts): Pick<RouteModel, "textString" | "textTerms"> {
  const read = skillTextStrings(db);
  const cached = new LRUCache<number, { strings: string[]; terms?: SkillTextTerms }>({ max: TEXT_STRING_SKILLS });
  const entry = (skill: number) => {
    let found = cached.get(skill);
    if (!found) cached.set(skill, (found = { strings: read(skills[skill]!.id) }));
    return found;
  };
  return {
    textString: (skill, position) => entry(skill).strings[position] ?? "",
    textTerms(skill) {
      const found = entry(skill);
      if (!found.terms) {
        const kindAt = textKinds(counts, skill);
        const terms: SkillTextTerms = { queries: [], negatives: [], queryTermsAt: new Map(), manifestWords: new Set() };
        found.strings.forEach((text, position) => {
          const kind = kindAt(position);
          if (kind.group !== "description") terms[kind.group].push({ position, terms: new Set(analyseText(text)), ...(kind.use ? { use: kind.use } : {}) });
        });
        for (const query of terms.queries) {
          terms.queryTermsAt.set(query.position, query.terms);
          if (query.use === undefined) for (const term of query.terms) terms.manifestWords.add(term);
        }
        found.terms = terms;
      }
      return found.terms;
    },
  };
}
