import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRouterClient } from "../../src/client/index.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { writeAgentSkill } from "../helpers/fixtures.js";
import { indexSkillSet } from "../helpers/skill-set.js";
import { waitUntil } from "../helpers/wait.js";
import { closedEndpoint } from "../helpers/mock-hub.js";
import { binShims } from "./bin-shims.js";
import { runProcess } from "./run-process.js";
import { TSX } from "./tsx.js";

const dir = mkdtempSync(path.join(tmpdir(), "examples-"));
let server: RunningServer;

beforeAll(async () => {
  const { db } = await indexSkillSet(dir);
  server = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 0 });
  await server.ready;
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function runExample(file: string, message: string, routerUrl: string) {
  return runProcess(process.execPath, [TSX, file, message], "", { env: { ROUTER_URL: routerUrl } });
}

describe("examples", () => {
  it("type-check against the types skill-router/client publishes", async () => {
    const result = await runProcess(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "examples"], "");
    expect([result.code, result.stdout]).toEqual([0, ""]);
  });

  it("fetch.ts puts the routed skill into the system prompt, and none when the router is down", async () => {
    const routed = await runExample("examples/fetch.ts", "my pod keeps restarting with CrashLoopBackOff", server.url);
    const system: string = JSON.parse(routed.stdout).messages[0].content;
    expect(system).toMatch(/^You are a helpful assistant\.\n\nFollow the skill "k8s-debug":\n\n# Kubernetes debugging/);
    const down = await runExample("examples/fetch.ts", "my pod keeps restarting", await closedEndpoint());
    expect([down.code, JSON.parse(down.stdout).messages[0].content]).toEqual([0, "You are a helpful assistant."]);
  });

  it("client.ts injects, abstains, and falls back", async () => {
    const routed = await runExample("examples/client.ts", "my pod keeps restarting with CrashLoopBackOff", server.url);
    expect(routed.stdout).toMatch(/^inject k8s-debug \(confidence [01]\.\d\d, \d+ tokens\)\n# Kubernetes debugging/);
    const none = await runExample("examples/client.ts", "what is the capital of France?", server.url);
    expect(none.stdout).toMatch(/^no skill fits \(below_threshold\); closest was/);
    const down = await runExample("examples/client.ts", "my pod keeps restarting", await closedEndpoint());
    expect([down.code, down.stdout]).toEqual([0, "no skill (router_unavailable: ROUTER_UNREACHABLE); answering without one\n"]);
  });
});

describe("keeping the index fresh after installs", () => {
  it("the postinstall script of examples/keep-fresh re-indexes, and a running router serves the new skill", async () => {
    const project = path.join(dir, "my-agent");
    const skills = path.join(project, "skills");
    writeAgentSkill(skills, "k8s-debug", { description: "Debug failing Kubernetes pods: CrashLoopBackOff, OOMKilled. Use when a pod keeps restarting." });
    copyFileSync("examples/keep-fresh/package.json", path.join(project, "package.json"));
    // npm puts node_modules/.bin first on a script's PATH, where installing skill-router links `router`.
    binShims(path.join(project, "node_modules", ".bin"));
    const npm = (script: string) => runProcess("npm", ["run", script, "--silent"], "", { env: { npm_config_update_notifier: "false" }, cwd: project });

    expect((await npm("postinstall")).code).toBe(0);
    const db = path.join(project, ".router", "index.db");
    expect(existsSync(db)).toBe(true);
    const served = await startServer({ db, host: "127.0.0.1", port: 0, reloadIntervalMs: 100 });
    try {
      await served.ready;
      const client = createRouterClient({ url: served.url });
      const question = "turn this scanned PDF invoice into a table with pdfplumber";
      expect((await client.routeOrThrow(question)).selected).toEqual([]);

      writeAgentSkill(skills, "pdf-extract", { description: "Extract text and tables from PDF files with pdfplumber. Use when the user shares a PDF or asks to pull data out of one." });
      expect((await npm("postinstall")).code).toBe(0);
      let selected: string[] = [];
      await waitUntil(async () => (selected = (await client.routeOrThrow(question)).selected).length > 0, "the new skill routed");
      expect(selected).toEqual(["pdf-extract"]);
    } finally {
      await served.close();
    }
  });
});
