import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresFeedbackStore } from "../../src/feedback/postgres-feedback-store.js";
import { runIndex } from "../../src/indexer/run-index.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { openIndexForRead } from "../../src/store/database.js";
import { countFeedback } from "../../src/store/feedback-rows.js";
import { CLI, runCli } from "../helpers/cli.js";
import { POSTGRES_MISSING, startPostgres, type TestPostgres } from "../helpers/postgres-server.js";
import { indexSkillSet } from "../helpers/skill-set.js";

// A replica whose feedback goes to PostgreSQL, and the builder that folds it in: issue 42's fleet on one machine.
describe.skipIf(POSTGRES_MISSING !== undefined)(`feedback kept in PostgreSQL${POSTGRES_MISSING ? ` (skipped: ${POSTGRES_MISSING})` : ""}`, () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fleet-feedback-"));
  let pg: TestPostgres;
  let replica: RunningServer;
  let root: string;
  let db: string;
  const skillHourly = 30;

  beforeAll(async () => {
    pg = await startPostgres({ fast: true });
    ({ root, db } = await indexSkillSet(dir));
    replica = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 0, cli: CLI, feedbackUrl: pg.url, feedbackSkillHourly: skillHourly });
    await replica.ready;
  });

  afterAll(async () => {
    await replica?.close();
    pg?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (pathname: string, body: unknown, client?: string) =>
    fetch(`${replica.url}${pathname}`, { method: "POST", headers: { "content-type": "application/json", ...(client ? { "x-router-client": client } : {}) }, body: JSON.stringify(body) });
  const indexRows = () => {
    const reader = openIndexForRead(db);
    try {
      return countFeedback(reader);
    } finally {
      reader.close();
    }
  };

  it("stores POST /feedback in PostgreSQL, not the index; `router index` folds it in and the replica answers from the new version", async () => {
    const learned = ["QBR deck for Acme due friday", "put together our QBR numbers", "need the QBR ready for the execs"];
    for (const query of learned) {
      const answer = await post("/feedback", { query, skill: "sql-query-review" }, "agent");
      expect(answer.status).toBe(201);
      expect(await answer.json()).toMatchObject({ stored: { query, skill: "sql-query-review", client: "agent" }, duplicate: false, applies: expect.stringContaining("router index") });
    }
    expect(indexRows()).toBe(0);
    const store = postgresFeedbackStore(pg.url);
    try {
      expect(await store.count()).toBe(3);
      const before = (await (await post("/route", { query: learned[0] })).json()) as { index_version: number };
      const summary = await runIndex({ paths: [root], db, feedbackStore: store });
      expect(summary.folded).toMatchObject({ store: pg.url, rows: 3 });
      expect(summary.feedback.examples).toBe(3);
      expect(summary.indexVersion).toBeGreaterThan(before.index_version);
      expect(indexRows()).toBe(3);
      expect(await replica.reload()).toBe(true);
      const after = (await (await post("/route", { query: learned[1] })).json()) as { index_version: number; skills: { name: string }[] };
      expect(after.index_version).toBe(summary.indexVersion);
      expect(after.skills[0]!.name).toBe("sql-query-review");
      // Nothing new in the store: the next run holds the same rows and makes no new version.
      const again = await runIndex({ paths: [root], db, feedbackStore: store });
      expect([again.indexVersion, again.folded.rows]).toEqual([summary.indexVersion, 3]);
    } finally {
      await store.close();
    }
  });

  it("router doctor and router feedback list say where feedback goes, password masked, and which rows the index holds", () => {
    const withPassword = pg.url.replace("router@", "router:s3cret@");
    const env = { ROUTER_FEEDBACK_URL: withPassword };
    const doctor = runCli(["doctor", "--db", db, "--json"], { env });
    const report = JSON.parse(doctor.stdout) as { feedback: { store: string; kind: string; rows: number; folded: { store: string; rows: number } } };
    expect(report.feedback).toMatchObject({ kind: "postgres", store: pg.url.replace("router@", "router:********@"), rows: 3, folded: { rows: 3 } });
    expect(doctor.stdout).not.toContain("s3cret");
    const listed = runCli(["feedback", "list", "--db", db], { env });
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("QBR deck for Acme due friday");
    expect(listed.stderr).toMatch(/^3 pieces of feedback in postgres:\/\/router:\*{8}@/);
    expect(listed.stderr).toContain(`${db} holds 3 of them from postgres://router@`);
    // `router feedback apply` folds the same store with the same fold: nothing new, so no new version.
    const applied = runCli(["feedback", "apply", "--db", db, "--json"], { env });
    expect(applied.status, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ folded: { rows: 3 }, feedback: { examples: 3 } });
  });

  it("takes one skill's hourly share from a flood of made-up client names, answering FEEDBACK_LIMIT with Retry-After", async () => {
    const outcomes = [];
    for (let n = 0; n < skillHourly + 20; n++) {
      const answer = await post("/feedback", { query: `how do I read the rows of scanned invoice number ${n}`, skill: "pdf-extract" }, `client-${n}`);
      outcomes.push({ status: answer.status, retryAfter: answer.headers.get("retry-after"), body: (await answer.json()) as { error?: { code: string } } });
    }
    // A row also teaches the skill the router injected instead, whose hour may fill first (earlier rows taught it too).
    const stored = outcomes.filter((outcome) => outcome.status === 201).length;
    expect(stored).toBeGreaterThan(skillHourly - 5);
    expect(stored).toBeLessThanOrEqual(skillHourly);
    const refused = outcomes.filter((outcome) => outcome.status === 409);
    expect(refused).toHaveLength(outcomes.length - stored);
    expect(refused[0]!.body.error!.code).toBe("FEEDBACK_LIMIT");
    expect(Number(refused[0]!.retryAfter)).toBeGreaterThan(3_000);
  });

  it("keeps routing while the store is down: /feedback answers 503 FEEDBACK_STORE_UNAVAILABLE with Retry-After, and stores again once it is back", async () => {
    pg.stop();
    try {
      const routed = await post("/route", { query: "my pod keeps restarting" });
      expect(routed.status).toBe(200);
      const started = performance.now();
      const refused = await post("/feedback", { query: "the deployment will not roll out", skill: "k8s-debug" });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("FEEDBACK_STORE_UNAVAILABLE");
      expect(performance.now() - started).toBeLessThan(4_000);
    } finally {
      pg.start();
    }
    expect((await post("/feedback", { query: "the deployment will not roll out", skill: "k8s-debug" })).status).toBe(201);
  });
});
