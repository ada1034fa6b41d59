import { describe, expect, it } from "vitest";
import type { FeedbackStore, JudgedFeedback } from "../../src/feedback/feedback-store.js";
import type { FeedbackLimits } from "../../src/store/feedback-limits.js";

// Smaller than the shipped limits so the suite stays quick; the same code enforces both.
const LIMITS: FeedbackLimits = { total: 20_000, perSkill: 1_000, perClientSkill: 30, windowMs: 3_600_000, perSkillInWindow: 20, perSenderInWindow: 60 };
const FEEDBACK_LIMITS = LIMITS;

/** Two handles on one fresh store, as two replicas (or a server and the CLI) would hold it. */
export interface StorePair {
  store: FeedbackStore;
  other: FeedbackStore;
}

/**
 * The one suite every FeedbackStore passes (Hono's style: one interface, one shared test suite). `newStore` makes a
 * fresh, empty store each time and closes nothing: the test closes both handles.
 */
export function runFeedbackStoreConformance(name: string, newStore: (limits: FeedbackLimits) => Promise<StorePair>): void {
  const judged = (query: string, skill: string | null, extra: Partial<JudgedFeedback> = {}): JudgedFeedback => ({
    query,
    skill,
    wrong: null,
    routeId: null,
    client: "test",
    role: skill === null ? "none" : "example",
    note: skill === null ? "no skill should answer it" : `an example of ${skill}`,
    embedder: "test-embedder",
    vector: Float32Array.from([0.6, 0.8, 0]),
    sender: null,
    ...extra,
  });
  const withStores = async (work: (pair: StorePair) => Promise<void>) => {
    const pair = await newStore(LIMITS);
    try {
      await work(pair);
    } finally {
      await pair.store.close();
      await pair.other.close();
    }
  };

  describe(`FeedbackStore conformance: ${name}`, () => {
    it("stores a judged row, committed before it answers: another handle reads it", () =>
      withStores(async ({ store, other }) => {
        const { row, duplicate } = await store.record(judged("Debug my pod", "k8s-debug", { wrong: "pdf-extract", routeId: "r-1", client: "agent" }));
        expect(duplicate).toBe(false);
        expect(row).toMatchObject({ query: "Debug my pod", skill: "k8s-debug", wrong: "pdf-extract", routeId: "r-1", client: "agent", times: 1, role: "example" });
        expect(row.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(await other.list()).toEqual([row]);
        expect(await other.count()).toBe(1);
      }));

    it("keeps one row per request: the same word again (a retry) counts once, a new word replaces the old", () =>
      withStores(async ({ store, other }) => {
        const first = await store.record(judged("Commit my staged changes", "git-commit"));
        const again = await other.record(judged("commit my   STAGED changes", "git-commit"));
        expect([again.duplicate, again.row.id, again.row.times]).toEqual([true, first.row.id, 2]);
        const changed = await store.record(judged("commit my staged changes", null, { wrong: "git-commit" }));
        expect([changed.duplicate, changed.row.id, changed.row.skill, changed.row.wrong, changed.row.times]).toEqual([false, first.row.id, null, "git-commit", 1]);
        expect(await store.count()).toBe(1);
      }));

    it("lists by skill (its examples and its negatives), forgets by id, by skill and all", () =>
      withStores(async ({ store, other }) => {
        const a = await store.record(judged("first", "alpha"));
        await store.record(judged("second", "beta", { wrong: "alpha" }));
        const c = await store.record(judged("third", "beta"));
        expect((await other.list("alpha")).map((row) => row.query)).toEqual(["first", "second"]);
        expect(await other.forget({ ids: [a.row.id, 999_999] })).toBe(1);
        expect(await store.forget({ skill: "beta" })).toBe(2);
        await store.record(judged("fourth", null));
        expect((await store.list()).map((row) => row.id)).not.toContain(c.row.id);
        expect(await store.forget({ all: true })).toBe(1);
        expect(await store.count()).toBe(0);
      }));

    it("hands an index run every row with its vector, and a revision that grows with every new row", () =>
      withStores(async ({ store, other }) => {
        const empty = await other.snapshot();
        expect(empty.rows).toEqual([]);
        await store.record(judged("first", "alpha"));
        const one = await other.snapshot();
        await store.record(judged("second", "beta", { embedder: null, vector: null }));
        const two = await other.snapshot();
        expect(two.revision).toBeGreaterThan(one.revision);
        expect(one.revision).toBeGreaterThan(empty.revision);
        expect(two.rows.map((row) => [row.query, row.embedder, row.vector ? Array.from(row.vector).map((x) => Math.round(x * 10) / 10) : null])).toEqual([
          ["first", "test-embedder", [0.6, 0.8, 0]],
          ["second", null, null],
        ]);
      }));

    it("caps each client's rows of one skill (the operator's too); another client still writes", () =>
      withStores(async ({ store }) => {
        for (let n = 0; n < FEEDBACK_LIMITS.perClientSkill; n++) await store.record(judged(`request ${n}`, "alpha"));
        await expect(store.record(judged("one too many", "alpha"))).rejects.toMatchObject({ code: "FEEDBACK_LIMIT", details: { limit: FEEDBACK_LIMITS.perClientSkill } });
        expect((await store.record(judged("one too many", "alpha", { client: "someone-else" }))).duplicate).toBe(false);
      }));

    it("takes at most perSkillInWindow new network rows per skill an hour, whatever client names they give, and says when to try again", () =>
      withStores(async ({ store, other }) => {
        const at = new Date("2026-12-05T10:00:00.000Z");
        // Two handles (two replicas) writing at once: the cap is the store's, not a process's.
        const sent = Array.from({ length: FEEDBACK_LIMITS.perSkillInWindow + 20 }, (_, n) =>
          (n % 2 ? store : other).record(judged(`flood ${n}`, "alpha", { client: `made-up-${n}`, sender: "addr:203.0.113.7" }), at).then(
            () => "stored",
            (error: { code?: string; details?: { retryAfterSeconds?: number } }) => error,
          ),
        );
        const outcomes = await Promise.all(sent);
        expect(outcomes.filter((outcome) => outcome === "stored")).toHaveLength(FEEDBACK_LIMITS.perSkillInWindow);
        const refused = outcomes.find((outcome) => outcome !== "stored") as { code: string; details: { retryAfterSeconds: number } };
        expect(refused.code).toBe("FEEDBACK_LIMIT");
        expect(refused.details.retryAfterSeconds).toBeGreaterThan(3_500);
        expect(refused.details.retryAfterSeconds).toBeLessThanOrEqual(3_600);
        // Another sender gets no more into that skill; the operator's own word is not bounded by the window; an hour later the skill takes more.
        await expect(store.record(judged("from elsewhere", "alpha", { sender: "addr:198.51.100.1" }), at)).rejects.toMatchObject({ code: "FEEDBACK_LIMIT" });
        expect((await store.record(judged("said at the terminal", "alpha"), at)).duplicate).toBe(false);
        expect((await store.record(judged("another skill", "beta", { sender: "addr:203.0.113.7" }), at)).duplicate).toBe(false);
        const later = new Date(at.getTime() + FEEDBACK_LIMITS.windowMs + 1_000);
        expect((await store.record(judged("an hour later", "alpha", { sender: "addr:203.0.113.7" }), later)).duplicate).toBe(false);
        // A skill flooded as the one wrongly injected (its negatives) is bounded the same way.
        await expect(store.record(judged("negative flood", "beta", { wrong: "alpha", sender: "addr:198.51.100.2" }), at)).rejects.toMatchObject({ code: "FEEDBACK_LIMIT" });
      }));

    it("takes at most perSenderInWindow new rows an hour from one sender, across skills", () =>
      withStores(async ({ store }) => {
        const at = new Date("2026-12-05T10:00:00.000Z");
        const skills = Math.ceil(FEEDBACK_LIMITS.perSenderInWindow / FEEDBACK_LIMITS.perSkillInWindow);
        for (let n = 0; n < FEEDBACK_LIMITS.perSenderInWindow; n++) await store.record(judged(`request ${n}`, `skill-${n % skills}`, { client: `c${n}`, sender: "key:abc" }), at);
        await expect(store.record(judged("one more", "skill-extra", { sender: "key:abc" }), at)).rejects.toMatchObject({ code: "FEEDBACK_LIMIT" });
        expect((await store.record(judged("one more", "skill-extra", { sender: "key:other" }), at)).duplicate).toBe(false);
      }));

    it("stores concurrent writers' rows, each once", () =>
      withStores(async ({ store, other }) => {
        const distinct = Array.from({ length: 40 }, (_, n) => (n % 2 ? store : other).record(judged(`request number ${n}`, `skill-${n % 4}`)));
        const same = Array.from({ length: 10 }, (_, n) => (n % 2 ? store : other).record(judged("the same request", "alpha")));
        const results = await Promise.all([...distinct, ...same]);
        expect(new Set(results.map((result) => result.row.id)).size).toBe(41);
        expect(results.slice(40).filter((result) => !result.duplicate)).toHaveLength(1);
        const rows = await store.list();
        expect(rows).toHaveLength(41);
        expect(rows.find((row) => row.query === "the same request")!.times).toBe(10);
      }));
  });
}
