import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { postgresFeedbackStore } from "../../src/feedback/postgres-feedback-store.js";
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from "../helpers/postgres-server.js";
import { runFeedbackStoreConformance } from "./feedback-store-conformance.js";

// One server for the file; each store gets a database of its own.
let server: TestPostgres | undefined;
let databases = 0;

async function freshDatabase(): Promise<string> {
  const admin = new pg.Client({ connectionString: server!.url });
  await admin.connect();
  const name = `store_${++databases}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return server!.url.replace(/\/router$/, `/${name}`);
}

describe.skipIf(POSTGRES_MISSING !== undefined)(`PostgreSQL feedback store${POSTGRES_MISSING ? ` (skipped: ${POSTGRES_MISSING})` : ""}`, () => {
  beforeAll(async () => {
    server = await startPostgres({ fast: true });
  });
  afterAll(() => server?.remove());

  runFeedbackStoreConformance("PostgreSQL", async (limits) => {
    const url = await freshDatabase();
    return { store: postgresFeedbackStore(url, { limits }), other: postgresFeedbackStore(url, { limits }) };
  });

  const row = (query: string) => ({ query, skill: "alpha", wrong: null, routeId: null, client: "test", role: "example" as const, note: "", embedder: null, vector: null, sender: null });

  it("keeps its own schema version, migrates once however many replicas start together, and refuses a newer schema", async () => {
    const url = await freshDatabase();
    const stores = Array.from({ length: 4 }, () => postgresFeedbackStore(url));
    await Promise.all(stores.map((store, n) => store.record(row(`request ${n}`))));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      expect((await admin.query("SELECT component, version FROM router_schema_versions")).rows).toEqual([{ component: "skill-router feedback", version: 1 }]);
      await admin.query("UPDATE router_schema_versions SET version = 99");
      const later = postgresFeedbackStore(url);
      await expect(later.count()).rejects.toMatchObject({ code: "FEEDBACK_STORE_TOO_NEW", details: { version: 99, supported: 1 } });
      await later.close();
    } finally {
      await admin.end();
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it("says where it writes with the password masked", () => {
    const store = postgresFeedbackStore("postgres://router:s3cret@db.example:5432/feedback");
    expect(store.where).toBe("postgres://router:********@db.example:5432/feedback");
    expect(store.where).not.toContain("s3cret");
    return store.close();
  });

  it("answers FEEDBACK_STORE_UNAVAILABLE with a Retry-After within its timeouts while the server is down, and works again once it is back", async () => {
    const url = await freshDatabase();
    const store = postgresFeedbackStore(url, { timeouts: { connectMs: 1_000, queryMs: 1_000 } });
    try {
      await store.record(row("before the outage"));
      server!.stop();
      const started = performance.now();
      await expect(store.record(row("during the outage"))).rejects.toMatchObject({ code: "FEEDBACK_STORE_UNAVAILABLE", status: 503, details: { retryAfterSeconds: 5 } });
      expect(performance.now() - started).toBeLessThan(2_500);
      server!.start();
      await store.record(row("after the outage"));
      expect((await store.list()).map((stored) => stored.query)).toEqual(["before the outage", "after the outage"]);
    } finally {
      server!.start();
      await store.close();
    }
  });
});
