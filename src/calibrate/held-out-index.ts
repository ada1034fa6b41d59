import type { RoutingParams } from "../route/routing-params.js";
import { DEFAULT_RETRIEVERS } from "../route/router.js";
import { snapshotOf, type Snapshot } from "../route/snapshot.js";
import type { IndexDatabase } from "../store/database.js";
import { readMeta } from "../store/index-meta.js";
import { readManifests, replaceManifest } from "../store/manifest-rows.js";
import { readSkillTexts, replaceSkillTexts } from "../store/vectors.js";
import { buildRoutingData } from "../indexer/build-routing-data.js";

/** Texts to take out of one skill: manifest queries and negatives, and requests from use, matched without regard to case. */
export interface HeldOut {
  skillId: string;
  queries: string[];
  negatives?: string[];
  usage?: string[];
}

/**
 * Runs `work` on the index as it would be without the held-out texts (their vectors and manifest entries removed and
 * the routing data built again, inside a savepoint), then rolls the savepoint back: the index is left as it was. A
 * held-out request is then new to its own skill, as a user's request is.
 */
export async function withHeldOut<T>(db: IndexDatabase, heldOut: HeldOut[], params: RoutingParams, work: (snapshot: Snapshot) => Promise<T>): Promise<T> {
  const manifests = readManifests(db);
  db.exec("SAVEPOINT held_out");
  try {
    const dimension = readMeta(db).dimension ?? 0;
    for (const held of heldOut) {
      const queries = new Set(held.queries.map((text) => text.toLowerCase()));
      const negatives = new Set((held.negatives ?? []).map((text) => text.toLowerCase()));
      const usage = new Set((held.usage ?? []).map((text) => text.toLowerCase()));
      const heldOfKind = (kind: string) => (kind === "query" ? queries : kind === "negative" ? negatives : kind.startsWith("usage") ? usage : new Set<string>());
      const kept = (kind: string, text: string) => !heldOfKind(kind).has(text.toLowerCase());
      replaceSkillTexts(
        db,
        held.skillId,
        readSkillTexts(db, held.skillId, dimension).filter((text) => kept(text.kind, text.text)),
      );
      const manifest = manifests.get(held.skillId)!.manifest;
      replaceManifest(db, held.skillId, {
        ...manifest,
        queries: manifest.queries.filter((query) => kept("query", query)),
        negatives: manifest.negatives.filter((negative) => kept("negative", negative)),
      });
    }
    buildRoutingData(db);
    return await work(await snapshotOf(db, { retrievers: DEFAULT_RETRIEVERS, params }));
  } finally {
    db.exec("ROLLBACK TO held_out; RELEASE held_out");
  }
}
