import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { examplesSource } from "../../src/expand/examples-source.js";
import { PROMPT_VERSION } from "../../src/expand/expansion-prompt.js";
import type { ExpansionSubject } from "../../src/expand/expansion-subject.js";
import { fileSource } from "../../src/expand/file-source.js";
import { heuristicSource } from "../../src/expand/heuristic-source.js";
import { importSource } from "../../src/expand/import-source.js";
import { cachedLlmSource, llmSource } from "../../src/expand/llm-source.js";
import { openIndexForWrite, type IndexDatabase } from "../../src/store/database.js";
import { sqliteManifestCache } from "../../src/store/manifest-cache.js";
import { skillTextHash } from "../../src/store/skill-text.js";
import { tempDir } from "../helpers/fixtures.js";
import { goodManifestFor, startChatServer, type ChatServer } from "./chat-server.js";
import { describeManifestSourceConformance } from "./manifest-source-conformance.js";

function subject(name: string, metadata: ExpansionSubject["metadata"] = {}): ExpansionSubject {
  return {
    id: `id-${name}`,
    name,
    kind: "skill",
    description: `Debug ${name} failures. Use when the user asks why ${name} keeps failing.`,
    body: `# ${name}\n\n## Reading ${name} logs\nSteps.`,
    contentHash: `hash-${name}`.padEnd(64, "0"),
    metadata,
  };
}

const plain = subject("plain");
const ignore = () => undefined;
let server: ChatServer;
let db: IndexDatabase;

beforeAll(async () => {
  server = await startChatServer((request) => ({ content: goodManifestFor(request) }));
  db = openIndexForWrite(path.join(tempDir(), "router.db"));
});
afterAll(async () => {
  await server.close();
  db.close();
});

describeManifestSourceConformance({ name: "heuristic", create: heuristicSource, claimed: plain });
describeManifestSourceConformance({
  name: "file",
  create: () => fileSource(ignore),
  claimed: subject("filed", { manifestFile: { file: "router-manifest.yaml", content: { queries: ["why does filed keep failing"] } } }),
  // A file that breaks the schema is passed over too.
  unclaimed: subject("broken-file", { manifestFile: { file: "router-manifest.yaml", content: { queries: "not a list" } } }),
});
describeManifestSourceConformance({ name: "examples", create: examplesSource, claimed: subject("examples", { exampleQueries: ["why is examples failing"] }), unclaimed: plain });
describeManifestSourceConformance({
  name: "import",
  create: () =>
    importSource(
      new Map([
        ["imported", { manifest: { queries: ["an imported request"] }, origin: "test" }],
        ["stale", { manifest: { queries: ["old"] }, hashPrefix: "ffff", origin: "test" }],
      ]),
      ignore,
    ),
  claimed: subject("imported"),
  // Made for other content: not imported.
  unclaimed: subject("stale"),
});
describeManifestSourceConformance({
  name: "llm (a local OpenAI-protocol server)",
  create: () => llmSource({ model: "scripted-model", baseURL: server.url, concurrency: 2, timeoutMs: 2_000, retries: 1 }, sqliteManifestCache(db), []),
  claimed: subject("asked"),
});
describeManifestSourceConformance({
  name: "cached llm answers",
  create: () => {
    const cache = sqliteManifestCache(db);
    cache.put(
      { textHash: skillTextHash(subject("paid")), promptVersion: PROMPT_VERSION, model: "earlier-model" },
      { queries: ["paid for earlier"], keywords: [], phrases: [], negatives: [], negative_constraint: "", category: "" },
    );
    return cachedLlmSource(cache);
  },
  claimed: subject("paid"),
  unclaimed: plain,
});
