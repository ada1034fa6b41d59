import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { expandManifests, expansionChain, manifestsToRenew, type ExpandOptions } from "../../src/expand/expand-skills.js";
import type { StoredManifest } from "../../src/store/records.js";
import { PROMPT_VERSION } from "../../src/expand/expansion-prompt.js";
import type { ExpansionSubject } from "../../src/expand/expansion-subject.js";
import { HEURISTIC_VERSION, heuristicManifest } from "../../src/expand/heuristic-expander.js";
import type { LlmSettings } from "../../src/expand/llm-settings.js";
import { openIndexForWrite, type IndexDatabase } from "../../src/store/database.js";
import { sqliteManifestCache, type ManifestCache } from "../../src/store/manifest-cache.js";
import { skillTextHash } from "../../src/store/skill-text.js";
import { tempDir } from "../helpers/fixtures.js";
import { goodManifestFor, startChatServer, type ChatServer, type ScriptedReply } from "./chat-server.js";

function subject(name: string, description = `Helps with ${name.replace(/-/g, " ")}. Use when the user asks about ${name}.`): ExpansionSubject {
  return { id: `id-${name}`, name, kind: "skill", description, body: `# ${name}\n\n## Checking ${name} logs\nSteps.`, contentHash: `hash-${name}`.padEnd(64, "0"), metadata: {} };
}

// One run's chain over these options, as the indexer builds it.
const expand = (subjects: ExpansionSubject[], options: ExpandOptions) => expandManifests(subjects, expansionChain(options));
const toRenew = (subjects: ExpansionSubject[], stored: Map<string, StoredManifest>, options: ExpandOptions) => manifestsToRenew(subjects, stored, expansionChain(options));

let server: ChatServer | undefined;
let db: IndexDatabase | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  db?.close();
  db = undefined;
});

async function setUp(
  reply: (request: Parameters<typeof goodManifestFor>[0], index: number) => ScriptedReply,
  settings: Partial<LlmSettings> = {},
): Promise<{ options: ExpandOptions; cache: ManifestCache }> {
  server = await startChatServer(reply);
  db = openIndexForWrite(path.join(tempDir(), "router.db"));
  const cache = sqliteManifestCache(db);
  const llm: LlmSettings = { model: "scripted-model", baseURL: server.url, concurrency: 2, timeoutMs: 2_000, retries: 2, ...settings };
  return { options: { llm, cache }, cache };
}

describe("LLM expander against a scripted OpenAI-compatible server", () => {
  it("stores the LLM's manifest, asks with a JSON schema and the neighbours, caches it and reports tokens", async () => {
    const { options, cache } = await setUp((request) => ({ content: goodManifestFor(request), usage: { prompt: 300, completion: 120 } }));
    const subjects = [subject("alpha-logs"), subject("beta-logs"), subject("gamma-metrics")];
    const { manifests, report } = await expand(subjects, { ...options, neighbourPool: subjects });

    const alpha = manifests.get("id-alpha-logs")!;
    expect(alpha.source).toBe("llm");
    expect(alpha.manifest.queries).toHaveLength(20);
    expect(alpha.manifest.queries[0]).toBe("llm request 1 about alpha-logs");
    expect(report).toMatchObject({ expander: "llm", model: "scripted-model", cacheHits: 0, fallbacks: [] });
    expect(report.llm).toMatchObject({ requests: 3, retries: 0, promptTokens: 900, completionTokens: 360, responseFormat: "json_schema" });

    const request = server!.requests.find((entry) => entry.body.messages[1]!.content.includes("Skill name: alpha-logs"))!;
    expect(request.body.response_format).toMatchObject({ type: "json_schema", json_schema: { strict: true } });
    // The nearest neighbour (sharing "logs") is named so the negatives can point at it.
    expect(request.body.messages[1]!.content).toMatch(/Neighbouring skills[^]*- beta-logs:/);
    expect(cache.get({ textHash: skillTextHash(subjects[0]!), promptVersion: PROMPT_VERSION, model: "scripted-model" })).toEqual(alpha.manifest);

    // A second expansion of the same content is served from the cache: no request at all.
    const again = await expand(subjects, options);
    expect(server!.requests).toHaveLength(3);
    expect(again.report.cacheHits).toBe(3);
    expect(again.report.llm).toBeUndefined();
    expect(toRenew(subjects, again.manifests, options)).toEqual([]);
    expect(again.manifests.get("id-alpha-logs")!.version).toBe(`llm:${PROMPT_VERSION}:scripted-model`);
    // A manifest made by another prompt or model is made again (from the cache when this one was asked before).
    const older = new Map([...again.manifests].map(([id, stored]) => [id, { ...stored, version: "llm:older-prompt:scripted-model" }]));
    expect(toRenew(subjects, older, options)).toEqual(subjects);
  });

  it("retries an answer that is not JSON, breaks the schema or is truncated, telling the model what was wrong", async () => {
    const answers: ScriptedReply[] = [
      { content: "Sure! Here are some queries: deploy, rollback" },
      { content: JSON.stringify({ queries: ["only one"], keywords: [], phrases: [], negatives: [], negative_constraint: "", category: "" }) },
      { content: '{"queries": ["cut off', finishReason: "length" },
    ];
    const { options } = await setUp((request, index) => answers[index] ?? { content: goodManifestFor(request) }, { retries: 3, concurrency: 1 });
    const { manifests, report } = await expand([subject("alpha")], options);
    expect(manifests.get("id-alpha")!.source).toBe("llm");
    expect(report.llm).toMatchObject({ requests: 4, retries: 3 });
    expect(server!.requests[1]!.body.messages.at(-1)!.content).toMatch(/unusable \(not JSON/);
    expect(server!.requests[2]!.body.messages.at(-1)!.content).toMatch(/unusable \(breaks the manifest schema: queries/);
  });

  it("falls back to the heuristic manifest, naming the skill, when every answer is unusable", async () => {
    const { options, cache } = await setUp(() => ({ content: "" }), { retries: 1 });
    const notices: string[] = [];
    const only = subject("alpha");
    const { manifests, report } = await expand([only], { ...options, onNotice: (message) => notices.push(message) });
    expect(manifests.get("id-alpha")).toEqual({ source: "heuristic", version: `heuristic:${HEURISTIC_VERSION}`, manifest: heuristicManifest(only) });
    expect(manifests.get("id-alpha")!.manifest.queries.length).toBeGreaterThan(0);
    expect(report.fallbacks).toEqual([{ skill: "alpha", reason: "empty answer" }]);
    expect(notices).toEqual([expect.stringMatching(/^skill "alpha": no usable LLM manifest \(empty answer\); using the heuristic manifest/)]);
    expect(cache.get({ textHash: skillTextHash(only), promptVersion: PROMPT_VERSION, model: "scripted-model" })).toBeUndefined();
    // A fallback is retried on the next run: the stored heuristic manifest is due for renewal.
    expect(toRenew([only], manifests, options)).toEqual([only]);
  });

  it("waits out a 429 (honouring retry-after-ms) and succeeds; a lasting 500 falls back after the retries", async () => {
    // Longer than the SDK's own first backoff (at most 500 ms): a retry this late came from the header.
    const retryAfterMs = 600;
    const limitedAt: number[] = [];
    const { options } = await setUp(
      (request, index) => {
        if (request.body.messages[1]!.content.includes("Skill name: limited")) {
          limitedAt.push(performance.now());
          return index === 0 ? { status: 429, error: "rate limited", headers: { "retry-after-ms": String(retryAfterMs) } } : { content: goodManifestFor(request) };
        }
        return { status: 500, error: "internal error" };
      },
      { concurrency: 1, retries: 2 },
    );
    const { manifests, report } = await expand([subject("limited"), subject("broken")], options);
    expect(manifests.get("id-limited")!.source).toBe("llm");
    // A lower bound only, which a slow machine cannot break: timers never fire early (bar rounding to the millisecond).
    expect(limitedAt).toHaveLength(2);
    expect(limitedAt[1]! - limitedAt[0]!).toBeGreaterThanOrEqual(retryAfterMs - 5);
    expect(manifests.get("id-broken")!.source).toBe("heuristic");
    expect(report.fallbacks).toEqual([{ skill: "broken", reason: expect.stringMatching(/HTTP 500 internal error/) }]);
    // limited: 429 + success; broken: 1 + 2 retries.
    expect(report.llm).toMatchObject({ requests: 5, retries: 3 });
  });

  it("times out a server that never answers and gives the LLM up after three skills in a row fail", async () => {
    const { options } = await setUp(() => ({ hang: true }), { timeoutMs: 150, retries: 1, concurrency: 1 });
    const notices: string[] = [];
    const subjects = ["one", "two", "three", "four", "five"].map((name) => subject(name));
    const { manifests, report } = await expand(subjects, { ...options, onNotice: (message) => notices.push(message) });
    expect([...manifests.values()].every((stored) => stored.source === "heuristic")).toBe(true);
    // Three skills × two attempts, then the circuit breaker: skills four and five are never sent.
    expect(server!.requests).toHaveLength(6);
    expect(report.fallbacks[0]).toEqual({ skill: "one", reason: "no answer within 150 ms" });
    expect(notices.at(-1)).toMatch(/^LLM given up for the rest of this run \(3 skills in a row failed: no answer within 150 ms\); 2 skills use the heuristic manifest: four, five/);
  });

  it("switches to JSON mode for a server that rejects json_schema, and stays there", async () => {
    const { options } = await setUp(
      (request) => (request.body.response_format?.type === "json_schema" ? { status: 400, error: "response_format type 'json_schema' is not supported" } : { content: goodManifestFor(request) }),
      { concurrency: 1 },
    );
    const { manifests, report } = await expand([subject("alpha"), subject("beta")], options);
    expect(manifests.get("id-alpha")!.source).toBe("llm");
    expect(manifests.get("id-beta")!.source).toBe("llm");
    expect(server!.requests.map((request) => request.body.response_format?.type)).toEqual(["json_schema", "json_object", "json_object"]);
    expect(report.llm).toMatchObject({ responseFormat: "json_object", retries: 0 });
    // JSON mode needs the word JSON in the prompt.
    expect(server!.requests[1]!.body.messages[0]!.content).toMatch(/JSON/);
  });

  it("stops at once on a refused key, and needs a configured LLM for --expander llm", async () => {
    const { options } = await setUp(() => ({ status: 401, error: "invalid api key" }));
    const { report } = await expand([subject("alpha"), subject("beta"), subject("gamma")], { ...options, llm: { ...options.llm!, concurrency: 1 } });
    expect(server!.requests).toHaveLength(1);
    expect(report.fallbacks.map((fallback) => fallback.skill)).toEqual(["alpha", "beta", "gamma"]);
    expect(() => expansionChain({ expander: "llm" })).toThrow(expect.objectContaining({ code: "LLM_NOT_CONFIGURED" }));
  });
});
