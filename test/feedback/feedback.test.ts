import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyFeedbackRun } from "../../src/indexer/apply-feedback-run.js";
import { recordFeedback } from "../../src/feedback/record-feedback.js";
import { refitFromFeedback } from "../../src/feedback/refit-from-feedback.js";
import { createQueryEncoder } from "../../src/models/query-encoder.js";
import { fittedParamsRecord } from "../../src/store/routing-params.js";
import { runIndex } from "../../src/indexer/run-index.js";
import { createRouter, type Router } from "../../src/route/router.js";
import { startServer } from "../../src/server/serve.js";
import { openIndexForRead, openIndexForWrite } from "../../src/store/database.js";
import { FEEDBACK_LIMITS, forgetFeedback, listFeedback, saveFeedback } from "../../src/store/feedback-rows.js";
import { CLI, runCli } from "../helpers/cli.js";
import { tempDir, writeAgentSkill } from "../helpers/fixtures.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { untilServeReady, waitUntil } from "../helpers/wait.js";

// Shared by every test (tempDir's folders go after each test): tests that write feedback work on copies.
const dir = mkdtempSync(path.join(tmpdir(), "feedback-"));
let root: string;
let db: string;

beforeAll(async () => {
  ({ root, db } = await indexSkillSet(dir));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fresh copy of the indexed skill set, for a test that writes feedback. */
async function freshIndex(): Promise<string> {
  const copy = path.join(tempDir(), "router.db");
  const source = openIndexForRead(db);
  try {
    await source.backup(copy);
  } finally {
    source.close();
  }
  return copy;
}

async function withRouter<T>(file: string, work: (router: Router) => Promise<T>): Promise<T> {
  const router = await createRouter({ db: file });
  try {
    return await work(router);
  } finally {
    await router.close();
  }
}

describe("feedback, judged and kept", () => {
  it("makes a confirmed request an example of its skill, and the skill injected instead gets it as a negative", async () => {
    const file = await freshIndex();
    await withRouter(file, async (router) => {
      const example = await recordFeedback(router, file, { query: "the nightly backup pod keeps getting OOMKilled", skill: "k8s-debug" }, "test", 1000);
      expect(example.row).toMatchObject({ role: "example", skill: "k8s-debug", wrong: null, note: "an example of k8s-debug" });
      const answer = await router.route("give me a recipe for pancakes");
      const none = await recordFeedback(router, file, { query: "give me a recipe for pancakes", skill: null, route_id: answer.route_id }, "test", 1000);
      expect(none.row).toMatchObject({ role: "none", skill: null, wrong: answer.selected[0] ?? null });
    });
  });

  it("does not learn a request its skill's own texts name as a near miss", async () => {
    const file = await freshIndex();
    await withRouter(file, async (router) => {
      // pdf-extract's description says: "Do not use for Word documents."
      const { row } = await recordFeedback(router, file, { query: "Word documents", skill: "pdf-extract" }, "test", 1000);
      expect(row.role).toBe("rejected");
      expect(row.note).toMatch(/^not learned: it is nearer "word documents", which pdf-extract's texts say is not for it/i);
    });
  });

  it("keeps one row per request: the same word counts once, a new word replaces the old", async () => {
    const file = await freshIndex();
    await withRouter(file, async (router) => {
      const first = await recordFeedback(router, file, { query: "Commit my staged changes", skill: "git-commit-messages" }, "test", 1000);
      const again = await recordFeedback(router, file, { query: "commit my   staged changes", skill: "git-commit-messages" }, "test", 1000);
      expect([again.duplicate, again.row.id, again.row.times]).toEqual([true, first.row.id, 2]);
      const changed = await recordFeedback(router, file, { query: "commit my staged changes", skill: null }, "test", 1000);
      expect([changed.duplicate, changed.row.id, changed.row.role, changed.row.times]).toEqual([false, first.row.id, "none", 1]);
    });
  });

  it("names the nearest skills when the one named is not in the index", async () => {
    await withRouter(db, async (router) => {
      await expect(router.feedback({ query: "debug my pod", skill: "k8s-debugg" })).rejects.toMatchObject({ code: "SKILL_NOT_FOUND", details: { suggestions: ["k8s-debug"] } });
    });
  });

  it("caps what one client says of one skill, so that it cannot take the skill over", async () => {
    const file = await freshIndex();
    const writer = openIndexForWrite(file);
    try {
      const row = (n: number) => ({
        query: `request ${n}`,
        skill: "regex" as string | null,
        wrong: null,
        routeId: null,
        client: "spammer",
        role: "example" as const,
        note: "",
        embedder: null,
        vector: null,
      });
      for (let n = 0; n < FEEDBACK_LIMITS.perClientSkill; n++) saveFeedback(writer, row(n));
      expect(() => saveFeedback(writer, row(FEEDBACK_LIMITS.perClientSkill))).toThrow(expect.objectContaining({ code: "FEEDBACK_LIMIT" }));
      expect(saveFeedback(writer, { ...row(FEEDBACK_LIMITS.perClientSkill), client: "someone-else" }).duplicate).toBe(false);
    } finally {
      writer.close();
    }
  });
});

describe("feedback applied to the index", () => {
  it("routes a request like two confirmed ones to their skill, and says the nearest came from use", async () => {
    const file = await freshIndex();
    await withRouter(file, async (router) => {
      for (const query of ["the nightly backup job in my cluster keeps getting OOMKilled", "my backup job in the cluster gets OOMKilled every night"]) {
        await recordFeedback(router, file, { query, skill: "k8s-debug" }, "test", 1000);
      }
      await recordFeedback(router, file, { query: "tell me a joke about databases", skill: null }, "test", 1000);
    });
    const run = await applyFeedbackRun(file);
    expect(run.feedback).toMatchObject({ examples: 2, lone: 0 });
    expect(run.indexVersion).toBeGreaterThan(1);
    await withRouter(file, async (router) => {
      const answer = await router.route("our nightly backup job keeps getting OOMKilled in the cluster");
      expect(answer.skills[0]).toMatchObject({ name: "k8s-debug", nearest_from_use: true });
      expect(answer.skills[0]!.nearest_query).toMatch(/backup job/);
    });
    // A second run changes nothing, and makes no new version.
    expect((await applyFeedbackRun(file)).indexVersion).toBe(run.indexVersion);
    // The feedback survives an index run, which folds it in again.
    const indexed = await runIndex({ paths: [root], db: file });
    expect(indexed.feedback).toMatchObject({ examples: 2 });
  });
});

describe("POST /feedback", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let file: string;

  beforeAll(async () => {
    file = await freshIndex();
    // The built CLI applies the feedback (from src, the installed one would be a .ts file).
    server = await startServer({ db: file, host: "127.0.0.1", port: 0, apiKey: "secret", reloadIntervalMs: 100, cli: CLI });
    await server.ready;
  });

  afterAll(async () => server.close());

  const post = (body: unknown, headers: Record<string, string> = { authorization: "Bearer secret" }) =>
    fetch(`${server.url}/feedback`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  it("stores what was said of an answer, applies it within seconds, and the running server routes with it", async () => {
    const routed = (await (
      await fetch(`${server.url}/route`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer secret" },
        body: JSON.stringify({ query: "our nightly backup pod keeps getting OOMKilled" }),
      })
    ).json()) as any;
    const response = await post(
      { query: "our nightly backup pod keeps getting OOMKilled", skill: "k8s-debug", route_id: routed.route_id },
      { authorization: "Bearer secret", "x-router-client": "ci" },
    );
    expect(response.status).toBe(201);
    const stored = (await response.json()) as any;
    expect(stored).toMatchObject({ duplicate: false, stored: { skill: "k8s-debug", client: "ci", role: "example" } });
    await waitUntil(async () => {
      const answer = (await (
        await fetch(`${server.url}/route`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer secret" },
          body: JSON.stringify({ query: "our nightly backup pod keeps getting OOMKilled" }),
        })
      ).json()) as any;
      return answer.skills[0]?.nearest_from_use === true;
    }, "the feedback applied in the running server");
  });

  it("answers an unknown skill 404 with the nearest names, a bad body 400, and nothing without the API key", async () => {
    const unknown = await post({ query: "debug my pod", skill: "k8s-debugg" });
    expect([unknown.status, ((await unknown.json()) as any).error]).toMatchObject([404, { code: "SKILL_NOT_FOUND", details: { suggestions: ["k8s-debug"] } }]);
    const bad = await post({ query: "  ", skill: null });
    expect(bad.status).toBe(400);
    const anonymous = await post({ query: "debug my pod", skill: "k8s-debug" }, {});
    expect([anonymous.status, ((await anonymous.json()) as any).error.code]).toEqual([401, "API_KEY_MISSING"]);
  });
});

describe("feedback the server answered for", () => {
  it("is in the index file even when the server is killed right after (kill -9)", { timeout: 120_000 }, async () => {
    const file = await freshIndex();
    const child = spawn(process.execPath, [CLI, "serve", "--db", file, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const { url } = await untilServeReady(child);
      const response = await fetch(`${url}/feedback`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "my pod is stuck in Pending", skill: "k8s-debug" }),
      });
      expect(response.status).toBe(201);
      child.kill("SIGKILL");
      await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.on("exit", resolve)));
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    const index = openIndexForRead(file);
    try {
      expect(listFeedback(index).map((row) => [row.query, row.skill])).toEqual([["my pod is stuck in Pending", "k8s-debug"]]);
    } finally {
      index.close();
    }
  });
});

describe("router feedback", () => {
  it("records, lists, exports, imports, forgets and applies from the command line", () => {
    const skills = tempDir();
    for (const name of ["pdf-extract", "sql-review", "git-commit", "k8s-debug", "weather", "invoices", "meal-plans", "translate", "slides", "regex"]) writeAgentSkill(skills, name);
    const file = path.join(tempDir(), "router.db");
    expect(runCli(["index", skills, "--db", file]).status).toBe(0);
    const added = runCli(["feedback", "my pod keeps restarting", "--skill", "k8s-debug", "--db", file]);
    expect([added.status, added.stdout]).toEqual([0, expect.stringMatching(/^stored #1: an example of k8s-debug/)]);
    expect(runCli(["feedback", "hello there", "--none", "--db", file]).status).toBe(0);
    const typo = runCli(["feedback", "hello there", "--skill", "k8s-debugg", "--db", file]);
    expect([typo.status, typo.stderr]).toEqual([3, expect.stringContaining('did you mean "k8s-debug"?')]);
    expect(runCli(["feedback", "both", "--skill", "k8s-debug", "--none", "--db", file]).stderr).toContain("give exactly one of --skill <name> or --none");
    const listed = JSON.parse(runCli(["feedback", "list", "--json", "--db", file]).stdout) as { id: number; skill: string | null }[];
    expect(listed.map((entry) => entry.skill)).toEqual(["k8s-debug", null]);
    const exported = path.join(tempDir(), "feedback.jsonl");
    expect(runCli(["feedback", "export", exported, "--db", file]).stdout).toContain("wrote 2 pieces of feedback");
    expect(runCli(["feedback", "forget", "--all", "--db", file]).stdout).toMatch(/^removed 2/);
    expect(runCli(["feedback", "import", exported, "--db", file]).stdout).toMatch(/^imported 2, 0 already said, 0 refused/);
    expect(runCli(["feedback", "apply", "--db", file]).stdout).toMatch(/^index v2: 1 examples from use \(1 not yet agreed with\), 0 negatives/);
    expect(runCli(["feedback", "forget", String(listed[0]!.id), "--db", file]).stdout).toMatch(/^removed 1/);
  });
});

describe("the decision refit from feedback", () => {
  it("is learned once there are enough labels, never over what `router fit` stored, and not again until the labels grow", { timeout: 120_000 }, async () => {
    const file = path.join(tempDir(), "router.db");
    await runIndex({ paths: ["data/skills"], db: file });
    const labelled = (JSON.parse(readFileSync("data/eval/examples.json", "utf8")) as { cases: { query: string; expected: string | null }[] }).cases;
    await withRouter(file, async (router) => {
      for (const item of labelled) await recordFeedback(router, file, { query: item.query, skill: item.expected }, "test", 1000);
    });
    const encoder = await createQueryEncoder();
    const writer = openIndexForWrite(file);
    try {
      const refit = (minimum = { examples: 10, none: 5 }) => refitFromFeedback(writer, async () => encoder, minimum);
      expect(await refit({ examples: 1000, none: 5 })).toBeUndefined();
      const learned = await refit();
      expect(learned).toMatchObject({ examples: expect.any(Number), none: expect.any(Number) });
      expect(learned!.examples + learned!.none).toBeGreaterThan(60);
      const stored = fittedParamsRecord.read(writer)!;
      expect(stored.origin).toMatch(/^refit from feedback: \d+ labels$/);
      // The same labels again: nothing new to learn.
      expect(await refit()).toBeUndefined();
      // Parameters `router fit` stored from the user's own labelled cases stay.
      fittedParamsRecord.write(writer, { ...stored, origin: "router fit on examples.json" });
      forgetFeedback(writer, { all: true });
      for (const item of labelled)
        saveFeedback(writer, {
          query: `${item.query} again`,
          skill: item.expected,
          wrong: null,
          routeId: null,
          client: "test",
          role: item.expected ? "example" : "none",
          note: "",
          embedder: null,
          vector: null,
        });
      expect(await refit()).toBeUndefined();
      expect(fittedParamsRecord.read(writer)!.origin).toBe("router fit on examples.json");
    } finally {
      writer.close();
      await encoder.close();
    }
  });
});

describe("feedback on a request that calls a skill by name", () => {
  it("teaches nothing: the router chose nothing", async () => {
    await withRouter(db, async (router) => {
      const judged = await router.feedback({ query: "$k8s-debug what is the capital of France?", skill: "k8s-debug" });
      expect(judged).toMatchObject({ role: "rejected", wrong: null, note: "not learned: it calls k8s-debug by name, so the router chose nothing" });
    });
  });
});

describe("evidence from use", () => {
  it("offers a skill for a request like one confirmed for it, injects it once three agree, and keeps that across a restart", { timeout: 120_000 }, async () => {
    // pdf-extract never says QBR: only the confirmed requests tie the word to it.
    const file = await freshIndex();
    const request = "can you start on the QBR for the board";
    const start = () => startServer({ db: file, host: "127.0.0.1", port: 0, apiKey: "secret", reloadIntervalMs: 100, cli: CLI });
    const headers = { "content-type": "application/json", authorization: "Bearer secret" };
    let server = await start();
    try {
      await server.ready;
      const route = async () => (await (await fetch(`${server.url}/route`, { method: "POST", headers, body: JSON.stringify({ query: request }) })).json()) as any;
      const confirm = async (query: string) => expect((await fetch(`${server.url}/feedback`, { method: "POST", headers, body: JSON.stringify({ query, skill: "pdf-extract" }) })).status).toBe(201);
      expect(await route()).not.toMatchObject({ decision: "inject", selected: ["pdf-extract"] });
      await confirm("QBR deck for Acme due friday");
      await waitUntil(async () => {
        const answer = await route();
        return answer.decision === "offer" && answer.offer.skills.some((skill: { name: string }) => skill.name === "pdf-extract");
      }, "pdf-extract offered after one confirmed request");
      await confirm("put together our QBR numbers");
      await confirm("need the QBR ready for the execs");
      await waitUntil(async () => {
        const answer = await route();
        return answer.decision === "inject" && answer.selected[0] === "pdf-extract";
      }, "pdf-extract injected after three");
    } finally {
      await server.close();
    }
    server = await start();
    try {
      await server.ready;
      const answer = (await (await fetch(`${server.url}/route`, { method: "POST", headers, body: JSON.stringify({ query: request }) })).json()) as any;
      expect(answer).toMatchObject({ decision: "inject", selected: ["pdf-extract"] });
    } finally {
      await server.close();
    }
  });
});

describe("a flood of feedback from one sender", () => {
  it("moves no answer: 1,000 rows under 1,000 made-up client names from one address teach its skill nothing", { timeout: 120_000 }, async () => {
    const file = await freshIndex();
    const lookalikes = Array.from({ length: 10 }, (_, at) => `explain git rebase to me, part ${at + 1}`);
    const own = "pull the tables out of this PDF report";
    const answers = async () =>
      withRouter(file, async (router) => {
        const decided = async (query: string) => {
          const answer = await router.route(query);
          return `${answer.decision}:${answer.selected.join()}:${(answer.offer?.skills ?? []).map((skill) => skill.name).join()}`;
        };
        return { lookalikes: await Promise.all(lookalikes.map(decided)), own: await decided(own) };
      });
    const before = await answers();
    const writer = openIndexForWrite(file);
    let stored = 0;
    try {
      await withRouter(file, async (router) => {
        for (let at = 0; at < 1000; at++) {
          const judged = await router.feedback({ query: `explain git rebase to me (${at})`, skill: "pdf-extract" });
          try {
            saveFeedback(writer, { ...judged, client: `client-${at}` }, "addr:203.0.113.7");
            stored++;
          } catch {
            // The store's window refuses most of them (FEEDBACK_LIMIT).
          }
        }
      });
    } finally {
      writer.close();
    }
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(1000);
    await applyFeedbackRun(file);
    const after = await answers();
    const changed = after.lookalikes.filter((answer, at) => answer !== before.lookalikes[at]).length;
    expect(changed).toBeLessThanOrEqual(1);
    expect(after.own).toBe(before.own);
  });

  it("is learned once another sender's request agrees with it", async () => {
    const file = await freshIndex();
    const writer = openIndexForWrite(file);
    try {
      await withRouter(file, async (router) => {
        for (const [query, sender] of [
          ["turn the quarterly QBR deck into a PDF table", "addr:198.51.100.1"],
          ["turn our QBR deck into PDF tables", "addr:198.51.100.2"],
        ] as const) {
          saveFeedback(writer, { ...(await router.feedback({ query, skill: "pdf-extract" })), client: "agent" }, sender);
        }
      });
    } finally {
      writer.close();
    }
    expect((await applyFeedbackRun(file)).feedback).toMatchObject({ examples: 2, lone: 0 });
  });
});
