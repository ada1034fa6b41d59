import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runIndex } from "../../src/indexer/run-index.js";
import { createQueryEncoder, type QueryEncoder } from "../../src/models/query-encoder.js";
import { createRouter, type Router } from "../../src/route/router.js";
import { formatResult } from "../../src/cli/route-command.js";
import { findSkillText } from "../../src/mcp/tool-text.js";
import type { RouteOptions } from "../../src/contract/route.js";
import { tempDir, writeAgentSkill } from "../helpers/fixtures.js";
import { indexSkillSet } from "../helpers/skill-set.js";

const dir = mkdtempSync(path.join(tmpdir(), "router-"));
let router: Router;
let root: string;
let db: string;

beforeAll(async () => {
  ({ root, db } = await indexSkillSet(dir));
  router = await createRouter({ db });
});

afterAll(async () => {
  await router.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("router.route", () => {
  it("injects the right skill and explains why", async () => {
    const result = await router.route("my pod keeps restarting with CrashLoopBackOff, how do I debug it with kubectl?");
    expect(result.decision).toBe("inject");
    expect(result.selected).toEqual(["k8s-debug"]);
    const [best] = result.skills;
    expect(best).toMatchObject({ name: "k8s-debug", kind: "skill" });
    expect(best!.confidence).toBeGreaterThan(result.skills[1]!.confidence);
    expect(best!.matched.keywords.length + best!.matched.phrases.length).toBeGreaterThan(0);
    expect(best!.nearest_query).toEqual(expect.any(String));
    expect(best!.tokens).toBeGreaterThan(0);
    expect(best!.signals.q2q_max).toBeGreaterThan(0.3);
    expect(best!.signals.bm25).toBeGreaterThan(0);
    expect(result.timing_ms.total).toBeGreaterThan(0);
    expect(result.index_version).toBe(1);
    expect(result.embedder).toBe("use-lite-512");
    // The tie-break is off unless asked for: no reranker, and nothing to warn about in every answer.
    expect([result.warnings, result.reranker, router.status().reranker]).toEqual([[], null, null]);
  });

  it("routes a Chinese request to the English skill it means, through the request's English gloss", async () => {
    expect((await router.route("我的容器一直重启，怎么排查")).selected).toEqual(["k8s-debug"]);
    expect((await router.route("柏林现在的天气怎么样")).selected).toEqual(["get_current_weather"]);
    expect((await router.route("帮我写一个提交信息")).selected).toEqual(["git-commit-messages"]);
  });

  it("routes tools too", async () => {
    expect((await router.route("what is the current weather in Berlin")).selected).toEqual(["get_current_weather"]);
  });

  it("answers none when nothing fits", async () => {
    const result = await router.route("tell me a joke about penguins");
    expect(result.decision).toBe("none");
    expect(result.reason).toBe("below_threshold");
    expect(result.selected).toEqual([]);
    expect(result.in_scope).toBeLessThan(result.threshold);
  });

  it("routes only among allowed skills and never to excluded ones", async () => {
    const only = await router.route("my pod keeps restarting", { skills: ["pdf-extract", "sql-query-review"] });
    expect(only.skills.map((skill) => skill.name).sort()).toEqual(["pdf-extract", "sql-query-review"]);
    const without = await router.route("my pod keeps restarting", { exclude: ["k8s-debug"] });
    expect(without.skills.map((skill) => skill.name)).not.toContain("k8s-debug");
  });

  it("scores an allow-list against what else in the index fits, and chooses only among the allowed", async () => {
    const query = "my pod keeps restarting with CrashLoopBackOff, how do I debug it with kubectl?";
    const scored = await router.candidates(query, { skills: ["pdf-extract"] });
    expect(scored.choices).toBe(1);
    expect(scored.names[0]).toBe("pdf-extract");
    expect(scored.names.slice(1)).toContain("k8s-debug");
    expect(scored.features).toHaveLength(scored.names.length);
    const alone = await router.route(query, { skills: ["pdf-extract"] });
    expect(alone).toMatchObject({ decision: "none", selected: [] });
    expect(alone.skills.map((skill) => skill.name)).toEqual(["pdf-extract"]);
    expect(await router.route(query, { skills: ["pdf-extract", "k8s-debug"] })).toMatchObject({ decision: "inject", selected: ["k8s-debug"] });
    expect((await router.candidates(query)).choices).toBe((await router.candidates(query)).names.length);
  });

  it("injects an allowed skill only when the retrievers find it in the whole index too", async () => {
    const query = "my pod keeps restarting with CrashLoopBackOff, how do I debug it with kubectl?";
    // One candidate per retriever: the whole index's retrievers find k8s-debug, not pdf-extract.
    const narrow = await createRouter({ db, candidatesPerRetriever: 1 });
    try {
      const refused = await narrow.route(query, { skills: ["pdf-extract"] });
      expect(refused).toMatchObject({ decision: "none", reason: "not_retrieved" });
      // router route and the MCP tool say why in words
      const why = "the retrievers do not find pdf-extract for this request in the whole index, only among the allowed skills";
      expect(formatResult(refused)).toContain(`-> none (not retrieved: ${why})`);
      expect(findSkillText(refused)).toContain(`(${why})`);
      expect(await narrow.route(query, { skills: ["pdf-extract", "k8s-debug"] })).toMatchObject({ decision: "inject", selected: ["k8s-debug"] });
    } finally {
      await narrow.close();
    }
  });

  it("holds the library to the same query rules as the HTTP API", async () => {
    await expect(router.route(" \n ")).rejects.toMatchObject({ code: "QUERY_EMPTY" });
    await expect(router.route("x".repeat(8_001))).rejects.toMatchObject({ code: "QUERY_TOO_LONG" });
    await expect(router.route(42 as unknown as string)).rejects.toMatchObject({ code: "QUERY_NOT_STRING" });
  });

  it("rejects unknown skill names, listing them", async () => {
    await expect(router.route("hi", { skills: ["k8s-debug", "nope", "nada"] })).rejects.toMatchObject({ code: "UNKNOWN_SKILLS", details: { unknown: ["nope", "nada"] } });
  });

  it("returns k candidates, the body on request, and honours a request threshold", async () => {
    const result = await router.route("extract the tables from this PDF report", { k: 2, include: ["body"] });
    expect(result.skills).toHaveLength(2);
    expect(result.skills[0]!.body).toContain("pdfplumber");
    const strict = await router.route("extract the tables from this PDF report", { threshold: 0.999999 });
    expect([strict.decision, strict.threshold]).toEqual(["none", 0.999999]);
  });

  it("lets recent context shift an ambiguous message", async () => {
    const bare = await router.route("why is it so slow?");
    const withContext = await router.route("why is it so slow?", { context: ["I ran EXPLAIN ANALYZE on my PostgreSQL query", { role: "assistant", content: "Share the plan." }] });
    const sqlRank = (result: typeof bare) => result.skills.findIndex((skill) => skill.name === "sql-query-review");
    expect(withContext.skills[0]!.name).toBe("sql-query-review");
    expect(withContext.skills[0]!.signals.q2q_max).toBeGreaterThan(bare.skills[Math.max(0, sqlRank(bare))]?.signals.q2q_max ?? -1);
  });

  it("injects several skills in multi mode", async () => {
    const result = await router.route("write a commit message, and also debug my crashing kubernetes pod", { multi: true, k: 3, threshold: 0.05 });
    expect(result.decision).toBe("inject");
    expect(result.selected).toEqual(expect.arrayContaining(["git-commit-messages", "k8s-debug"]));
  });

  it("injects the skill a message calls by name, whatever its scores, unless the allow-list or exclude says no", async () => {
    // A joke about penguins fits nothing; calling a skill by name ($name anywhere, /name first) injects it anyway.
    for (const query of ["$pdf-extract tell me a joke about penguins", "/pdf-extract tell me a joke about penguins", "Use $pdf-extract. Tell me a joke about penguins"]) {
      const result = await router.route(query);
      expect([result.decision, result.selected, result.invoked, result.skills[0]!.name]).toEqual(["inject", ["pdf-extract"], "pdf-extract", "pdf-extract"]);
    }
    // Calling the runner-up puts it first; in multi mode it leads the others.
    const called = await router.route("my pod keeps restarting, $sql-query-review");
    expect([called.selected, called.skills.map((skill) => skill.name).slice(0, 2)]).toEqual([["sql-query-review"], ["sql-query-review", "k8s-debug"]]);
    const multi = await router.route("write a commit message, and also debug my crashing kubernetes pod $pdf-extract", { multi: true, k: 3, threshold: 0.05 });
    expect(multi.selected[0]).toBe("pdf-extract");
    // Not a call (the message is routed on its words as usual): a name no skill has, one in other letter case, a slash inside the message.
    for (const query of ["$penguin-jokes tell me a joke about penguins", "$PDF-EXTRACT tell me a joke about penguins", "tell me a joke about /pdf-extract penguins"]) {
      expect((await router.route(query)).invoked).toBeNull();
    }
    // Nor a mention the message declines, or a skill the request leaves out.
    const declined: [string, RouteOptions][] = [
      ["tell me a joke about penguins, don't use $pdf-extract", {}],
      ["$pdf-extract tell me a joke about penguins", { exclude: ["pdf-extract"] }],
      ["$pdf-extract tell me a joke about penguins", { skills: ["k8s-debug"] }],
    ];
    for (const [query, options] of declined) {
      const result = await router.route(query, options);
      expect([query, result.decision, result.invoked]).toEqual([query, "none", null]);
    }
  });

  it("penalises a skill when the message is closer to one of its negatives", async () => {
    const result = await router.route("extract text from a Word document", { k: 5 });
    const pdf = result.skills.find((skill) => skill.name === "pdf-extract");
    expect(pdf?.negative ?? null).not.toBeNull();
    expect(pdf!.signals.negative).toBeGreaterThan(0);
  });
});

describe("router lifecycle", () => {
  /** A router over its own index of one skill, "alpha", in a skills folder the test may add to. */
  async function routerOfOneSkill(): Promise<{ own: string; ownDb: string; live: Router }> {
    const own = tempDir();
    writeAgentSkill(own, "alpha", { description: "Alpha things." });
    const ownDb = path.join(tempDir(), "r.db");
    await runIndex({ paths: [own], db: ownDb });
    return { own, ownDb, live: await createRouter({ db: ownDb }) };
  }

  it("picks up a new index version on refresh, and not before", async () => {
    const { own, ownDb, live } = await routerOfOneSkill();
    try {
      expect(await live.refresh()).toBe(false);
      writeAgentSkill(own, "beta", { description: "Beta things." });
      await runIndex({ paths: [own], db: ownDb });
      expect(live.status().skills).toBe(1);
      expect(await live.refresh()).toBe(true);
      expect(live.status()).toMatchObject({ skills: 2, indexVersion: 2 });
    } finally {
      await live.close();
    }
  });

  it("reuses an answer for the same request on the same index version, and never across versions", async () => {
    const { own, ownDb, live } = await routerOfOneSkill();
    try {
      const first = await live.route("beta things please", { k: 2 });
      const again = await live.route("beta things please", { k: 2 });
      expect([first.timing_ms.cached, again.timing_ms.cached, again.timing_ms.embed]).toEqual([false, true, 0]);
      // Every answer gets its own route_id, for feedback on it.
      expect({ ...again, timing_ms: undefined, route_id: undefined }).toEqual({ ...first, timing_ms: undefined, route_id: undefined });
      expect(again.route_id).not.toBe(first.route_id);
      // Another option is another request; an edited answer does not leak into the next one.
      expect((await live.route("beta things please", { k: 1 })).timing_ms.cached).toBe(false);
      again.skills.length = 0;
      expect((await live.route("beta things please", { k: 2 })).skills).toEqual(first.skills);
      writeAgentSkill(own, "beta", { description: "Beta things." });
      await runIndex({ paths: [own], db: ownDb });
      await live.refresh();
      const fresh = await live.route("beta things please", { k: 2 });
      expect([fresh.timing_ms.cached, fresh.index_version, fresh.skills[0]!.name]).toEqual([false, 2, "beta"]);
    } finally {
      await live.close();
    }
  });

  it("answers none with a warning on an empty index", async () => {
    const emptyDb = path.join(tempDir(), "empty.db");
    await runIndex({ paths: [tempDir()], db: emptyDb, allowEmpty: true });
    const empty = await createRouter({ db: emptyDb });
    try {
      const result = await empty.route("anything");
      expect([result.decision, result.reason, result.warnings]).toEqual(["none", "empty_index", ["the index has no skills: run `router index <path>`"]]);
    } finally {
      await empty.close();
    }
  });

  it("stops at the next stage once its signal fires, rejecting with the signal's reason", async () => {
    const stop = new Error("deadline");
    await expect(router.route("my pod keeps restarting", { signal: AbortSignal.abort(stop) })).rejects.toBe(stop);

    // Fired while the query is being embedded: nothing after embedding runs.
    const base = await createQueryEncoder({ indexEmbedder: "use-lite-512" });
    const controller = new AbortController();
    const firing: QueryEncoder = {
      id: base.id,
      dimension: base.dimension,
      async embedQuery(text) {
        const vector = await base.embedQuery(text);
        controller.abort(stop);
        return vector;
      },
      embedMany: (texts) => base.embedMany(texts),
      close: () => base.close(),
    };
    const interrupted = await createRouter({ db, queryEncoder: firing });
    try {
      await expect(interrupted.route("my pod keeps restarting", { signal: controller.signal })).rejects.toBe(stop);
      expect((await interrupted.route("my pod keeps restarting")).selected).toEqual(["k8s-debug"]);
    } finally {
      await interrupted.close();
      await base.close();
    }
  });

  it("lists skills and reads one", () => {
    expect(router.skills().map((skill) => skill.name)).toEqual(["get_current_weather", "git-commit-messages", "k8s-debug", "pdf-extract", "sql-query-review"]);
    expect(router.skill("k8s-debug")?.source_path).toBe(path.join(root, "k8s-debug", "SKILL.md"));
    expect(router.skill("nope")).toBeUndefined();
  });
});

describe("a near miss the skill's manifest names", () => {
  it("is refused when it holds more of the request's words than any request the skill is for, and said so", async () => {
    const skills = tempDir();
    writeAgentSkill(skills, "windows-disk-audit", {
      description: "盘点 Windows C 盘空间占用，只读排查。",
      files: {
        "router-manifest.yaml": [
          "queries:",
          "  - C盘满了，帮我查查什么占空间",
          "  - 我的C盘只剩2GB了，哪些东西能清？",
          "  - 为什么C盘空间又增长了几十GB？",
          "negatives:",
          "  - 在 Linux 服务器上用 du 查磁盘占用",
          "  - OneDrive 云盘配额满了怎么办",
        ].join("\n"),
      },
    });
    for (const name of ["pdf-extract", "sql-review", "git-commit", "k8s-debug", "weather", "invoices", "meal-plans", "translate", "slides"]) writeAgentSkill(skills, name);
    const file = path.join(tempDir(), "router.db");
    await runIndex({ paths: [skills], db: file });
    const disks = await createRouter({ db: file });
    try {
      const own = await disks.route("C盘满了，帮我查查什么占了空间");
      expect(own.skills[0]?.name).toBe("windows-disk-audit");
      expect(own.reason).not.toBe("near_miss");
      const named = await disks.route("Linux 服务器上磁盘占用满了，用 du 查一下");
      expect(named).toMatchObject({ decision: "none", reason: "near_miss" });
      expect(named.skills[0]).toMatchObject({ name: "windows-disk-audit", negative: "在 Linux 服务器上用 du 查磁盘占用" });
      expect(formatResult(named)).toContain('near miss: windows-disk-audit\'s manifest says "在 Linux 服务器上用 du 查磁盘占用" is not for it');
      expect(findSkillText(named)).toContain("is not for it");
      // Called by name, it is injected all the same.
      expect(await disks.route("$windows-disk-audit Linux 服务器上磁盘占用满了，用 du 查一下")).toMatchObject({ decision: "inject", selected: ["windows-disk-audit"] });
    } finally {
      await disks.close();
    }
  });
});

describe("a skill used only when called by name", () => {
  it("is injected when the request names it ($name, /name or its bare name), and otherwise passed over with a warning", async () => {
    const skills = tempDir();
    writeAgentSkill(skills, "offer-magic", {
      description: "Turn a job posting into a tailored resume, then prepare interview answers that hold up.",
      extra: "disable-model-invocation: true",
    });
    writeAgentSkill(skills, "resume-polish", {
      description: "Polish one resume bullet or section: stronger verbs, quantified results.",
      files: { "router-manifest.yaml": "trigger: explicit\n" },
    });
    writeAgentSkill(skills, "frontend-redesign", { description: "Redesign a web frontend. Use only when the user explicitly invokes this skill by name." });
    for (const name of ["pdf-extract", "sql-review", "git-commit", "k8s-debug", "weather", "invoices", "meal-plans", "translate", "slides"]) writeAgentSkill(skills, name);
    const file = path.join(tempDir(), "router.db");
    await runIndex({ paths: [skills], db: file });
    const named = await createRouter({ db: file });
    try {
      expect(named.skill("offer-magic")?.metadata.explicit_only).toBe("its frontmatter says disable-model-invocation: true");
      expect(named.skill("resume-polish")?.metadata.explicit_only).toBe("router-manifest.yaml says trigger: explicit");
      expect(named.skill("frontend-redesign")?.metadata.explicit_only).toContain("Use only when the user explicitly invokes this skill by name");
      expect(named.skill("weather")?.metadata.explicit_only).toBeUndefined();
      const unnamed = await named.route("tailor my resume to this job posting and prepare interview answers");
      expect(unnamed.selected).not.toContain("offer-magic");
      expect(unnamed.skills.map((skill) => skill.name)).not.toContain("offer-magic");
      expect(unnamed.warnings).toContain("offer-magic fits this request best, but it is used only when called by name ($offer-magic or /offer-magic)");
      for (const request of ["$offer-magic tailor my resume to this job posting", "/offer-magic tailor my resume", "use offer-magic to tailor my resume to this job posting"]) {
        expect(await named.route(request), request).toMatchObject({ decision: "inject", selected: ["offer-magic"], invoked: "offer-magic" });
      }
      // A bare name counts only as a word of its own, and not where the message declines it.
      expect((await named.route("tailor my resume for the offer-magical role")).invoked).toBeNull();
      expect((await named.route("don't use offer-magic, just tailor my resume")).invoked).toBeNull();
      // Feedback judgement agrees with routing on what a call is: a bare-name call teaches nothing.
      expect(await named.feedback({ query: "use offer-magic to tailor my resume", skill: "offer-magic" })).toMatchObject({
        role: "rejected",
        note: "not learned: it calls offer-magic by name, so the router chose nothing",
      });
    } finally {
      await named.close();
    }
  });
});
