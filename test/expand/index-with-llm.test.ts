import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openIndexForRead } from "../../src/store/database.js";
import { readManifests } from "../../src/store/manifest-rows.js";
import { getSkill } from "../../src/store/skill-rows.js";
import type { CliResult } from "../helpers/cli.js";
import { tempDir, writeAgentSkill, writeFile } from "../helpers/fixtures.js";
import { writeZip } from "../helpers/zip.js";
import { runCliAsync } from "../models/run-cli-async.js";
import { goodManifestFor, startChatServer, type ChatServer } from "./chat-server.js";

// The CLI runs in a child process while the scripted server answers in this one: spawnSync would block it.
// No LLM from the caller's environment: each test configures its own.
function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runCliAsync(args, { ROUTER_LLM_MODEL: "", OPENAI_BASE_URL: "", OPENAI_API_KEY: "", ...env });
}

function storedManifest(db: string, name: string): { source: string; queries: string[] } {
  const index = openIndexForRead(db);
  try {
    const stored = readManifests(index).get(getSkill(index, name)!.id)!;
    return { source: stored.source, queries: stored.manifest.queries };
  } finally {
    index.close();
  }
}

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("router index and router expand with an LLM", () => {
  it("stores LLM manifests, and a second run makes zero LLM calls", async () => {
    server = await startChatServer((request) => ({ content: goodManifestFor(request), usage: { prompt: 200, completion: 80 } }));
    const root = tempDir();
    const db = path.join(tempDir(), "router.db");
    writeAgentSkill(root, "alpha-logs");
    writeAgentSkill(root, "beta-logs");
    const llm = { ROUTER_LLM_MODEL: "scripted-model", OPENAI_BASE_URL: server.url };

    const first = await runCli(["index", root, "--db", db, "-q"], llm);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/manifests {2}2 made \(2 llm\); scripted-model: 2 requests, 400 tokens in, 160 out/);
    expect(storedManifest(db, "alpha-logs")).toMatchObject({ source: "llm", queries: expect.arrayContaining(["llm request 1 about alpha-logs"]) });

    const second = await runCli(["index", root, "--db", db, "-q", "--json"], llm);
    expect(second.status, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ unchanged: 2, reexpanded: [], expansion: { sources: { llm: 0 } } });
    expect(server.requests).toHaveLength(2);
  });

  it("says once that the heuristic is in use, then renews those manifests when an LLM is configured", async () => {
    server = await startChatServer((request) => ({ content: goodManifestFor(request) }));
    const root = tempDir();
    const db = path.join(tempDir(), "router.db");
    writeAgentSkill(root, "alpha");
    writeAgentSkill(root, "beta");

    const offline = await runCli(["index", root, "--db", db, "-q"]);
    expect(offline.status, offline.stderr).toBe(0);
    expect(offline.stderr.match(/No LLM configured/g)).toHaveLength(1);
    expect(storedManifest(db, "alpha").source).toBe("heuristic");

    const online = await runCli(["index", root, "--db", db, "-q", "--json"], { ROUTER_LLM_MODEL: "scripted-model", OPENAI_BASE_URL: server.url });
    expect(online.status, online.stderr).toBe(0);
    expect(JSON.parse(online.stdout)).toMatchObject({ unchanged: 0, reexpanded: ["alpha", "beta"] });
    expect(storedManifest(db, "alpha").source).toBe("llm");

    const misconfigured = await runCli(["index", root, "--db", db, "-q"], { ROUTER_LLM_MODEL: "scripted-model" });
    expect(misconfigured.status).toBe(2);
    expect(misconfigured.stderr).toMatch(/error \[LLM_NOT_CONFIGURED\]/);
  });

  it("lets a hand-written router-manifest.yaml override the generated manifest, for skill folders and tool files", async () => {
    const root = tempDir();
    const db = path.join(tempDir(), "router.db");
    writeAgentSkill(root, "alpha", { files: { "router-manifest.yaml": "queries:\n  - my own words for alpha\nnegatives:\n  - something else entirely\n" } });
    writeFile(
      path.join(root, "tools.json"),
      JSON.stringify([{ name: "get_weather", description: "Current weather for a city.", parameters: { type: "object", properties: { city: { type: "string" } } } }]),
    );
    writeFile(path.join(root, "tools.router-manifest.yaml"), "get_weather:\n  queries: [is it raining in Oslo]\nnot_a_tool:\n  queries: [x]\n");
    await writeZip(path.join(root, "packed.zip"), {
      "zipped/SKILL.md": "---\nname: zipped\ndescription: A skill shipped in an archive.\n---\n# Zipped\n",
      "zipped/router-manifest.yaml": "queries: [words from inside the archive]\n",
    });

    const result = await runCli(["index", root, "--db", db, "-q", "--verbose"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/no tool named "not_a_tool" in tools\.json/);
    expect(storedManifest(db, "alpha")).toEqual({ source: "file", queries: ["my own words for alpha"] });
    expect(storedManifest(db, "get_weather")).toEqual({ source: "file", queries: ["is it raining in Oslo"] });
    expect(storedManifest(db, "zipped")).toEqual({ source: "file", queries: ["words from inside the archive"] });

    // Editing the file changes the skill's content hash: the next run picks the edit up.
    writeFile(path.join(root, "alpha", "router-manifest.yaml"), "queries: [edited words]\n");
    const edited = await runCli(["index", root, "--db", db, "-q", "--json"]);
    expect(JSON.parse(edited.stdout).updated).toEqual(["alpha"]);
    expect(storedManifest(db, "alpha").queries).toEqual(["edited words"]);
  });

  it("round-trips export and import: requests out, batch responses and simple lines in, manifests reviewable", async () => {
    const root = tempDir();
    const out = tempDir();
    const db = path.join(out, "router.db");
    writeAgentSkill(root, "alpha");
    writeAgentSkill(root, "beta");
    writeAgentSkill(root, "gamma");
    expect((await runCli(["index", root, "--db", db, "-q"])).status).toBe(0);

    const requestsFile = path.join(out, "requests.jsonl");
    const exported = await runCli(["expand", "--export", requestsFile, "--llm-model", "batch-model", "--db", db]);
    expect(exported.status, exported.stderr).toBe(0);
    const requests = readFileSync(requestsFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { custom_id: string; url: string; body: { model: string; messages: { role: string; content: string }[] } });
    expect(requests.map((request) => request.custom_id.split("@")[0])).toEqual(["alpha", "beta", "gamma"]);
    expect(requests[0]).toMatchObject({ method: "POST", url: "/v1/chat/completions", body: { model: "batch-model", response_format: { type: "json_schema" } } });

    // What a batch API gives back for alpha and beta, and a person's line for gamma.
    const batchLines = requests.slice(0, 2).map((request, index) =>
      JSON.stringify({
        id: `batch_req_${index}`,
        custom_id: request.custom_id,
        response: {
          status_code: 200,
          request_id: `req_${index}`,
          body: {
            id: "c",
            object: "chat.completion",
            model: "batch-model",
            choices: [{ index: 0, message: { role: "assistant", content: goodManifestFor({ body: request.body }) }, finish_reason: "stop" }],
          },
        },
        error: null,
      }),
    );
    const personLine = JSON.stringify({ name: "gamma", manifest: { queries: ["a person wrote this for gamma"] } });
    const responsesFile = writeFile(path.join(out, "responses.jsonl"), [...batchLines, personLine, "not json"].join("\n"));
    const imported = await runCli(["expand", "--import", responsesFile, "--db", db]);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/Imported 3 manifests/);
    expect(imported.stderr).toMatch(/responses\.jsonl line 4: not JSON/);
    expect(storedManifest(db, "beta")).toMatchObject({ source: "import", queries: expect.arrayContaining(["llm request 20 about beta"]) });
    expect(storedManifest(db, "gamma").queries).toEqual(["a person wrote this for gamma"]);

    // Imports stay through later runs, and every manifest can be written out for review.
    const later = await runCli(["index", root, "--db", db, "-q", "--json"]);
    expect(JSON.parse(later.stdout)).toMatchObject({ unchanged: 3, reexpanded: [] });
    const reviewDir = path.join(out, "review");
    expect((await runCli(["manifests", "export", reviewDir, "--db", db])).stdout).toMatch(/Wrote 3 manifests/);
    expect(readdirSync(reviewDir).sort()).toEqual(["alpha.yaml", "beta.yaml", "gamma.yaml"]);
    expect(readFileSync(path.join(reviewDir, "gamma.yaml"), "utf8")).toMatch(/source: import[^]*queries:\n {2}- a person wrote this for gamma/);
  });
});
